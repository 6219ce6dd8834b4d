// SPDX-License-Identifier: GPL-3.0-or-later
#include "measurementsdialog.h"

#include "views/document/scenariodocument.h"
#include "views/io/filereader.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/formats.h"
#include "core/model/units.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <map>

namespace views {

namespace {

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

QString percent(double ratio)
{
    return QString::number(ratio * 100.0, 'f', 0) + QStringLiteral(" %");
}

/** A measured or predicted value in the metric's own unit. */
QString valueText(core::MeasuredMetric metric, double value)
{
    switch (metric) {
    case core::MeasuredMetric::DecodeTokensPerSecond:
    case core::MeasuredMetric::DecodeTokensPerSecondPerSequence:
        return style::number(value, 4) + QStringLiteral(" tok/s");
    default:
        return text(core::formatSeconds(value));
    }
}

QString metricText(core::MeasuredMetric metric)
{
    switch (metric) {
    case core::MeasuredMetric::DecodeTokensPerSecondPerSequence:
        return MeasurementsDialog::tr("decode per sequence");
    case core::MeasuredMetric::DecodeTokensPerSecond:
        return MeasurementsDialog::tr("decode, all sequences");
    case core::MeasuredMetric::StepSeconds:
        return MeasurementsDialog::tr("decode step");
    case core::MeasuredMetric::TtftSeconds:
        return MeasurementsDialog::tr("first token");
    case core::MeasuredMetric::PrefillSeconds:
        return MeasurementsDialog::tr("prefill");
    }
    return {};
}

} // namespace

MeasurementsDialog::MeasurementsDialog(ScenarioDocument *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_chart(new QChart)
    , m_light(new QScatterSeries)
    , m_fitted(new QScatterSeries)
    , m_report(new QTextBrowser(this))
    , m_apply(new QPushButton(tr("Apply to Scenario"), this))
{
    setObjectName(QStringLiteral("measurementsDialog"));
    setWindowTitle(tr("Import Measurements"));
    auto *layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Engine"), tr("Measured"), tr("Metric"),
                                        tr("Speed of light"), tr("Fitted"), tr("Error"),
                                        tr("Fitted by")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // run names wrap rather than lose their middle ("Llama-3.1-8B, H1...batch 1") at 1280x800
    // (issue #42, item 10); the runs are a list, so its rows scroll
    m_tableFit = new TableFitter(m_table, TableFitter::Rows::Scroll);
    m_report->setProperty("accelRowsScroll", true); // a report: its lines scroll
    split->addWidget(m_table);

    // predicted / measured per run: the speed of light hollow, the fit filled, 0.85-1.15 shaded
    style::styleChart(m_chart);
    m_chart->setTitle(tr("Predicted / measured, run by run (1 = exact; the band is +-15 %)"));
    auto *x = new QValueAxis;
    x->setTitleText(tr("Run (the table's row)"));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(1);
    x->setTickInterval(1);
    auto *y = new QLogValueAxis;
    y->setTitleText(tr("Ratio"));
    y->setBase(2);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setMinorTickCount(-1);
    style::styleAxis(x);
    style::styleAxis(y);
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    m_light->setName(tr("speed of light"));
    m_light->setColor(Qt::transparent);
    m_light->setBorderColor(style::ink());
    m_light->setMarkerSize(11 * style::scale());
    m_fitted->setName(tr("fitted"));
    m_fitted->setColor(style::kBlue);
    m_fitted->setMarkerSize(9 * style::scale());
    for (const double edge : {0.85, 1.0, 1.15}) {
        auto *line = new QLineSeries;
        line->setPen(QPen(edge == 1.0 ? style::ink() : style::grey(160), 1.0,
                          edge == 1.0 ? Qt::SolidLine : Qt::DashLine));
        line->setObjectName(QStringLiteral("band"));
        line->setName(edge == 1.0 ? tr("exact") : QString());
        m_chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    for (QScatterSeries *series : {m_light, m_fitted}) {
        m_chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    for (QLegendMarker *marker : m_chart->legend()->markers())
        marker->setVisible(!marker->label().isEmpty());
    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumHeight(260);
    split->addWidget(chartView);
    split->addWidget(m_report);
    split->setSizes({240, 320, 180});
    layout->addWidget(split, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_apply, QDialogButtonBox::AcceptRole);
    m_apply->setEnabled(false);
    m_apply->setToolTip(tr("Switch the scenario to this calibration (Edit > Undo takes it back)."));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, &MeasurementsDialog::apply);
    layout->addWidget(buttons);
    resize(1100, 760);
}

MeasurementsDialog::~MeasurementsDialog() = default;

bool MeasurementsDialog::load(const QStringList &paths, QString *error)
{
    m_runs.clear();
    m_usedDefaults = false;
    m_problems.clear();
    m_result.reset();
    const core::Scenario &scenario = m_document->scenario();
    core::MeasurementDefaults defaults;
    defaults.model = scenario.model.presetId;
    defaults.device = scenario.device.presetId;
    for (const core::PresetInfo &info : core::presetList())
        if (info.kind == "device")
            defaults.deviceIds.push_back(info.id);
    for (const QString &path : paths) {
        QByteArray bytes;
        if (!readFileAtMost(path, qint64(core::kLargestInputBytes), tr("a measurement file"),
                            &bytes, error))
            return false;
        const std::string name = QFileInfo(path).fileName().toStdString();
        auto set = core::readMeasurements(
            std::string_view(bytes.constData(), std::size_t(bytes.size())), name, defaults);
        if (!set) {
            if (error)
                *error = QStringLiteral("%1: %2").arg(path, text(set.error().message));
            return false;
        }
        for (const core::Measurement &m : set->rows)
            m_usedDefaults = m_usedDefaults ||
                             m.source.find(" (llama-bench ") != std::string::npos ||
                             m.source.find(" (vllm bench serve ") != std::string::npos ||
                             m.source.find(" (GuideLLM ") != std::string::npos;
        m_runs.insert(m_runs.end(), set->rows.begin(), set->rows.end());
        m_problems.insert(m_problems.end(), set->problems.begin(), set->problems.end());
    }
    m_failure.clear();
    m_document->setMeasurements(m_runs); // drawn on the roofline and throughput views
    if (!m_runs.empty()) {
        auto fit = core::calibrate(m_runs, "Calibration from " +
                                               QFileInfo(paths.value(0)).fileName().toStdString());
        if (fit)
            m_result = std::move(fit.value());
        else
            m_failure = text(fit.error().message);
    } else {
        m_failure = tr("no usable run in the files");
    }
    fill();
    return true;
}

void MeasurementsDialog::fill()
{
    m_table->setRowCount(0);
    QList<QPointF> light, fitted;
    double low = 0.8, high = 1.25;
    if (m_result) {
        m_table->setRowCount(int(m_result->points.size()));
        int row = 0;
        for (const core::CalibrationPoint &p : m_result->points) {
            const core::Measurement &m = m_runs[p.row];
            const core::ServingConfig &sv = m.scenario.serving;
            QString device = text(m.scenario.device.name);
            for (const QString &vendor : {QStringLiteral("NVIDIA "), QStringLiteral("GeForce "),
                                          QStringLiteral("AMD "), QStringLiteral("Apple ")})
                device.remove(vendor);
            const QString run =
                tr("%1, %2, batch %3, %4 tokens")
                    .arg(text(m.scenario.model.name), device, style::number(sv.batch, 7),
                         style::number(sv.contextTokens, 7));
            const QStringList cells = {
                run,
                text(m.engine),
                valueText(m.metric, p.measured),
                metricText(m.metric),
                valueText(m.metric, p.predictedUncalibrated),
                valueText(m.metric, p.predicted),
                QStringLiteral("%1%2 %")
                    .arg(p.relativeError >= 0 ? QStringLiteral("+") : QString())
                    .arg(p.relativeError * 100.0, 0, 'f', 1),
                text(p.scope)};
            for (int column = 0; column < cells.size(); ++column) {
                auto *item = new QTableWidgetItem(cells[column]);
                item->setToolTip(text(m.source) + QStringLiteral("\n") + text(m.where()));
                if (column == 6 && std::fabs(p.relativeError) > 0.15)
                    item->setForeground(style::warning());
                m_table->setItem(row, column, item);
            }
            const double lightRatio = p.predictedUncalibrated / p.measured;
            const double fittedRatio = p.predicted / p.measured;
            light << QPointF(row + 1, lightRatio);
            fitted << QPointF(row + 1, fittedRatio);
            for (double r : {lightRatio, fittedRatio}) {
                if (std::isfinite(r) && r > 0) {
                    low = std::min(low, r);
                    high = std::max(high, r);
                }
            }
            ++row;
        }
    }
    m_tableFit->refit();
    m_light->replace(light);
    m_fitted->replace(fitted);
    const double runs = std::max<double>(1.0, double(light.size()));
    int band = 0;
    for (QAbstractSeries *series : m_chart->series()) {
        if (series->objectName() != QStringLiteral("band"))
            continue;
        const double level = band == 0 ? 0.85 : band == 1 ? 1.0 : 1.15;
        static_cast<QLineSeries *>(series)->replace(
            {QPointF(0.5, level), QPointF(runs + 0.5, level)});
        ++band;
    }
    m_chart->axes(Qt::Horizontal).front()->setRange(0.5, runs + 0.5);
    // whole powers of two, so the log axis has labels (0.5, 1, 2, 4)
    m_chart->axes(Qt::Vertical)
        .front()
        ->setRange(std::pow(2.0, std::floor(std::log2(low / 1.05))),
                   std::pow(2.0, std::ceil(std::log2(high * 1.05))));
    static_cast<QValueAxis *>(m_chart->axes(Qt::Horizontal).front())
        ->setTickInterval(runs > 24 ? std::ceil(runs / 12.0) : 1.0);

    std::size_t lightWithin = 0;
    if (m_result)
        for (const core::CalibrationPoint &p : m_result->points)
            lightWithin += std::fabs(p.predictedUncalibrated / p.measured - 1.0) <= 0.15 ? 1 : 0;
    m_summary->setText(
        m_result ? tr("<b>%1 runs</b> read (%2 left out or with a remark, listed below). Within "
                      "15 %: <b>%3 fitted</b>, %4 at the speed of light. Median error of the fit "
                      "%5, worst %6.%7")
                       .arg(m_result->points.size())
                       .arg(m_problems.size())
                       .arg(m_result->within15Percent)
                       .arg(lightWithin)
                       .arg(percent(m_result->medianAbsoluteError),
                            percent(m_result->worstAbsoluteError),
                            m_usedDefaults ? tr(" Runs from llama-bench, vLLM or GuideLLM, which "
                                                "name no preset, were "
                                                "taken as %1 on %2 (the scenario's).")
                                                 .arg(text(m_document->scenario().model.name),
                                                      text(m_document->scenario().device.name))
                                           : QString())
                 : tr("<b>Nothing to fit</b>: %1.").arg(m_failure));

    QString report;
    if (m_result) {
        report += tr("<h3>Fitted profile</h3><table cellpadding=3>"
                     "<tr><th align=left>For</th><th>Bandwidth</th><th>Compute</th>"
                     "<th>Step overhead</th><th>All-reduce</th><th>Runs</th></tr>");
        for (const core::CalibrationEntry &entry : m_result->profile.entries) {
            auto cell = [](const QString &value, bool fittedHere) {
                return fittedHere ? value : value + MeasurementsDialog::tr(" (not determined)");
            };
            const QString latency = std::isnan(entry.collectiveLatencySeconds)
                                        ? tr("the link's")
                                        : text(core::formatSeconds(entry.collectiveLatencySeconds));
            report += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                                     "<td align=right>%4</td><td align=right>%6</td>"
                                     "<td align=right>%5</td></tr>")
                          .arg(text(entry.scopeLabel()).toHtmlEscaped(),
                               cell(percent(entry.bandwidthEfficiency), entry.bandwidthFitted),
                               cell(percent(entry.computeEfficiency), entry.computeFitted),
                               cell(text(core::formatSeconds(entry.stepOverheadSeconds)),
                                    entry.overheadFitted),
                               QString::number(entry.points), latency);
        }
        report += QStringLiteral("</table>");
        if (!m_result->profile.notes.empty()) {
            report += tr("<h3>What the runs could not determine</h3><ul>");
            for (const std::string &note : m_result->profile.notes)
                report += QStringLiteral("<li>%1</li>").arg(text(note).toHtmlEscaped());
            report += QStringLiteral("</ul>");
        }
    }
    if (!m_problems.empty()) {
        report += tr("<h3>Rows left out or with a remark</h3><ul>");
        for (const core::MeasurementProblem &problem : m_problems)
            report += QStringLiteral("<li>%1</li>").arg(text(problem.text()).toHtmlEscaped());
        report += QStringLiteral("</ul>");
    }
    m_report->setHtml(report);
    m_apply->setEnabled(m_result.has_value());
}

QString MeasurementsDialog::reportText() const
{
    return m_summary->text() + QLatin1Char('\n') + m_report->toPlainText();
}

void MeasurementsDialog::apply()
{
    if (!m_result)
        return;
    m_document->applyCalibration(m_result->profile, QString());
    accept();
}

} // namespace views
