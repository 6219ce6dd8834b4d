// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/data/presets.h"
#include "core/model/calc.h"
#include "core/model/units.h"
#include "core/output/exports.h"
#include "core/physics/explain.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace views {

namespace {

using core::FigureId;
constexpr double kTera = 1e12;

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QColor colourA()
{
    return style::currentDevice();
}

QColor colourB()
{
    return style::comparisonDevice();
}

QList<QPointF> roof(const core::Evaluation &e, double xMin, double xMax)
{
    const double peak = e[FigureId::PeakFlops];
    const double bandwidth = e[FigureId::Bandwidth];
    QList<QPointF> points{QPointF(xMin, core::rooflineAttainable(peak, bandwidth, xMin) / kTera)};
    const double ridge = e[FigureId::Ridge];
    if (std::isfinite(ridge) && ridge > xMin && ridge < xMax)
        points << QPointF(ridge, core::rooflineAttainable(peak, bandwidth, ridge) / kTera);
    points << QPointF(xMax, core::rooflineAttainable(peak, bandwidth, xMax) / kTera);
    return points;
}

QString signedText(const core::ComparedFigure &row, core::MemoryUnits units)
{
    if (!std::isfinite(row.difference))
        return QStringLiteral("\u2013");
    const core::Quantity quantity = core::figureInfo(row.id).quantity;
    if (quantity == core::Quantity::Boolean)
        return row.differs ? QObject::tr("changes") : QStringLiteral("=");
    const QString magnitude =
        fromStd(core::formatQuantity(std::fabs(row.difference), quantity, units));
    if (!row.differs)
        return QStringLiteral("=");
    return (row.difference > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + magnitude;
}

QString ratioText(const core::ComparedFigure &row)
{
    if (!std::isfinite(row.ratio))
        return QStringLiteral("\u2013");
    return QStringLiteral("%1x").arg(style::number(row.ratio, 3));
}

} // namespace

CompareView::CompareView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_device(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_weights(new QComboBox(this))
    , m_differences(new QLabel(this))
    , m_roofChart(new QChart)
    , m_roofX(new QLogValueAxis)
    , m_roofY(new QLogValueAxis)
    , m_roofA(new QLineSeries)
    , m_roofB(new QLineSeries)
    , m_pointA(new QScatterSeries)
    , m_pointB(new QScatterSeries)
    , m_barsChart(new QChart)
    , m_barsY(new QBarCategoryAxis)
    , m_barsX(new QValueAxis)
    , m_memory(new QHorizontalStackedBarSeries)
    , m_weightsSet(new QBarSet(tr("Weights")))
    , m_kvSet(new QBarSet(tr("KV cache")))
    , m_overheadSet(new QBarSet(tr("Runtime overhead")))
    , m_fragmentationSet(new QBarSet(tr("Fragmentation")))
    , m_capacityA(nullptr)
    , m_capacityB(nullptr)
    , m_costChart(new QChart)
    , m_costY(new QBarCategoryAxis)
    , m_costX(new QValueAxis)
    , m_costA(new QBarSet(tr("A")))
    , m_costB(new QBarSet(tr("B")))
    , m_table(new QTableWidget(this))
    , m_barsKey(new QLabel(this))
{
    setObjectName(QStringLiteral("compareView"));
    m_variant.weightFormat = core::NumericFormat::Int8; // the lesson's BF16 against 1 byte
    fillChoices();
    for (QComboBox *box : {m_device, m_model, m_weights})
        connect(box, &QComboBox::activated, this, [this] { readChoices(); });
    m_differences->setWordWrap(true);
    m_differences->setTextFormat(Qt::RichText);
    m_barsKey->setObjectName(QStringLiteral("compareMemoryKey"));
    m_barsKey->setWordWrap(true);
    m_barsKey->setTextFormat(Qt::RichText);
    m_barsKey->setFont(style::annotationFont(0.9));

    const double sc = style::scale();
    m_roofChart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_roofChart);
    m_roofChart->legend()->hide();
    m_roofChart->setMargins(QMargins(4, 4, 4, 4));
    m_roofX->setTitleText(tr("Intensity (FLOP/byte)"));
    m_roofY->setTitleText(tr("Attainable (TFLOP/s)"));
    for (QLogValueAxis *axis : {m_roofX, m_roofY}) {
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
        style::styleAxis(axis);
    }
    m_roofChart->addAxis(m_roofX, Qt::AlignBottom);
    m_roofChart->addAxis(m_roofY, Qt::AlignLeft);
    m_roofA->setPen(QPen(colourA(), 3 * sc));
    m_roofB->setPen(QPen(colourB(), 3 * sc, Qt::DashLine));
    m_pointA->setColor(colourA());
    m_pointB->setColor(colourB());
    for (QScatterSeries *point : {m_pointA, m_pointB}) {
        point->setMarkerSize(16 * sc);
        point->setBorderColor(style::paper());
    }
    for (QAbstractSeries *series :
         std::initializer_list<QAbstractSeries *>{m_roofA, m_roofB, m_pointA, m_pointB}) {
        m_roofChart->addSeries(series);
        series->attachAxis(m_roofX);
        series->attachAxis(m_roofY);
    }
    m_roofLabels = std::make_unique<ChartLabels>(m_roofChart);

    m_barsChart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_barsChart);
    // the key is a wrapping label under the chart: Qt's legend cut "Runtime overhead" and
    // "Fragmentation" to "Runtim..." in a third of a 1280-pixel window (issue #42, item 10)
    m_barsChart->legend()->hide();
    m_barsChart->setMargins(QMargins(4, 4, 4, 4));
    m_weightsSet->setColor(style::weights());
    m_kvSet->setColor(style::kvCache());
    m_overheadSet->setColor(style::overhead());
    m_fragmentationSet->setColor(style::grey(90)); // as in the memory view
    for (QBarSet *set : {m_weightsSet, m_kvSet, m_overheadSet, m_fragmentationSet}) {
        set->setBorderColor(style::paper());
        m_memory->append(set);
    }
    m_memory->setBarWidth(0.55);
    m_barsChart->addSeries(m_memory);
    style::styleAxis(m_barsX);
    style::styleAxis(m_barsY);
    m_barsChart->addAxis(m_barsX, Qt::AlignBottom);
    m_barsChart->addAxis(m_barsY, Qt::AlignLeft);
    m_memory->attachAxis(m_barsX);
    m_memory->attachAxis(m_barsY);
    m_capacityA = new QLineSeries;
    m_capacityB = new QLineSeries;
    m_capacityA->setPen(QPen(colourA(), 3 * sc, Qt::DashLine));
    m_capacityB->setPen(QPen(colourB(), 3 * sc, Qt::DashLine));
    m_capacityA->setName(tr("capacity A"));
    m_capacityB->setName(tr("capacity B"));
    // capacities as short vertical marks over each bar, on a hidden 0..2 axis
    auto *markY = new QValueAxis;
    markY->setRange(0, 2);
    markY->setVisible(false);
    m_barsChart->addAxis(markY, Qt::AlignRight);
    for (QLineSeries *line : {m_capacityA, m_capacityB}) {
        m_barsChart->addSeries(line);
        line->attachAxis(m_barsX);
        line->attachAxis(markY);
    }

    // cost per million tokens, A against B
    m_costChart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_costChart);
    m_costChart->legend()->hide();
    m_costChart->setMargins(QMargins(4, 4, 4, 4));
    m_costA->setColor(colourA());
    m_costB->setColor(colourB());
    auto *cost = new QHorizontalBarSeries;
    cost->append(m_costB); // drawn bottom-up: B below, A on top
    cost->append(m_costA);
    cost->setLabelsVisible(true);
    cost->setLabelsPosition(QAbstractBarSeries::LabelsInsideBase);
    cost->setLabelsFormat(QStringLiteral("$@value"));
    cost->setLabelsPrecision(3);
    m_costA->setLabelColor(style::paper());
    m_costB->setLabelColor(style::paper());
    m_costA->setLabelFont(style::annotationFont(1.0));
    m_costB->setLabelFont(style::annotationFont(1.0));
    m_costChart->addSeries(cost);
    m_costY->append(tr("A, B"));
    style::styleAxis(m_costX);
    style::styleAxis(m_costY);
    m_costX->setTitleText(tr("USD / M tokens"));
    m_costChart->addAxis(m_costX, Qt::AlignBottom);
    m_costChart->addAxis(m_costY, Qt::AlignLeft);
    cost->attachAxis(m_costX);
    cost->attachAxis(m_costY);

    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels(
        {tr("Figure"), tr("A"), tr("B"), tr("B \u2212 A"), tr("B / A")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableFit = new TableFitter(m_table, TableFitter::Rows::AllShown);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && row < int(m_rows.size()))
            emit explainRequested(m_rows[std::size_t(row)].id);
    });

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("B is A with device"), this));
    controls->addWidget(m_device, 2);
    controls->addWidget(new QLabel(tr("model"), this));
    controls->addWidget(m_model, 2);
    controls->addWidget(new QLabel(tr("weights"), this));
    controls->addWidget(m_weights, 1);

    auto *charts = new QHBoxLayout;
    auto *roofView = new QChartView(m_roofChart, this);
    roofView->setRenderHint(QPainter::Antialiasing);
    auto *barsView = new QChartView(m_barsChart, this);
    barsView->setRenderHint(QPainter::Antialiasing);
    auto *costView = new QChartView(m_costChart, this);
    costView->setRenderHint(QPainter::Antialiasing);
    charts->addWidget(roofView, 5);
    auto *bars = new QVBoxLayout;
    bars->setSpacing(0);
    bars->addWidget(barsView, 1);
    bars->addWidget(m_barsKey);
    charts->addLayout(bars, 5);
    charts->addWidget(costView, 4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    layout->addWidget(m_differences);
    layout->addLayout(charts, 3);
    layout->addWidget(m_table, 2);
}

CompareView::~CompareView() = default;

void CompareView::fillChoices()
{
    m_device->addItem(tr("same as A"), QString());
    m_model->addItem(tr("same as A"), QString());
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "device")
            m_device->addItem(fromStd(info.name), fromStd(info.id));
        else if (info.kind == "model")
            m_model->addItem(fromStd(info.name), fromStd(info.id));
    }
    m_weights->addItem(tr("same as A"), -1);
    for (core::NumericFormat format : core::kAllFormats) {
        if (format != core::NumericFormat::Tf32)
            m_weights->addItem(QString::fromLatin1(core::formatLabel(format).data()), int(format));
    }
    m_weights->setCurrentIndex(m_weights->findData(int(core::NumericFormat::Int8)));
}

void CompareView::readChoices()
{
    core::ScenarioVariant variant;
    variant.deviceId = m_device->currentData().toString().toStdString();
    variant.modelId = m_model->currentData().toString().toStdString();
    const int format = m_weights->currentData().toInt();
    if (format >= 0)
        variant.weightFormat = core::NumericFormat(format);
    m_ownB.reset();
    setVariant(variant);
}

void CompareView::setVariant(const core::ScenarioVariant &variant)
{
    m_variant = variant;
    m_device->setCurrentIndex(std::max(0, m_device->findData(fromStd(variant.deviceId))));
    m_model->setCurrentIndex(std::max(0, m_model->findData(fromStd(variant.modelId))));
    m_weights->setCurrentIndex(
        std::max(0, m_weights->findData(variant.weightFormat ? int(*variant.weightFormat) : -1)));
    refresh();
}

void CompareView::setScenarioB(const std::optional<core::Scenario> &scenario, const QString &label)
{
    m_ownB = scenario;
    m_ownBLabel = label;
    for (QComboBox *box : {m_device, m_model, m_weights})
        box->setEnabled(!scenario);
    refresh();
}

void CompareView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &a = doc.scenario();
    const core::Evaluation &ea = doc.evaluation();
    const core::MemoryUnits units = doc.units();
    QString problem;
    if (m_ownB) {
        m_b = *m_ownB;
        m_evaluationB = core::evaluate(m_b);
    } else {
        const ScenarioDocument::Comparison &b = doc.comparison(m_variant);
        m_b = b.b;
        m_evaluationB = b.evaluation;
        problem = b.problem;
    }
    const core::Evaluation &eb = m_evaluationB;
    m_rows = core::compareFigures(ea, eb);

    // what differs, in words
    const auto inputs = core::differingInputs(a, m_b, units);
    QStringList parts;
    for (const core::InputDifference &d : inputs)
        parts << tr("<b>%1</b>: %2 \u2192 <span style=\"color:%4\"><b>%3</b></span>")
                     .arg(fromStd(d.label).toHtmlEscaped(), fromStd(d.a).toHtmlEscaped(),
                          fromStd(d.b).toHtmlEscaped(), style::readable(colourB()).name());
    QString heading = m_ownB ? tr("B is %1. ").arg(m_ownBLabel.toHtmlEscaped()) : QString();
    heading += parts.isEmpty() ? tr("A and B have the same key inputs.")
                               : tr("B differs from A in ") + parts.join(QStringLiteral("; "));
    if (!problem.isEmpty())
        heading += QStringLiteral(" <span style=\"color:%1\">%2</span>")
                       .arg(style::warning().name(), problem.toHtmlEscaped());
    m_differences->setText(heading);

    // roofline: both roofs, both decode points
    const double xMin = 0.1;
    const double xMax = 10000;
    replaceIfChanged(m_roofA, roof(ea, xMin, xMax));
    replaceIfChanged(m_roofB, roof(eb, xMin, xMax));
    const QPointF pointA(ea[FigureId::DecodeIntensity],
                         ea[FigureId::DecodeAttainableFlops] / kTera);
    const QPointF pointB(eb[FigureId::DecodeIntensity],
                         eb[FigureId::DecodeAttainableFlops] / kTera);
    replaceIfChanged(m_pointA, {pointA});
    replaceIfChanged(m_pointB, {pointB});
    const double top = std::max(ea[FigureId::PeakFlops], eb[FigureId::PeakFlops]) / kTera;
    m_roofX->setRange(xMin, xMax);
    m_roofY->setRange(0.1, std::pow(10.0, std::ceil(std::log10(std::max(top, 1.0)) + 0.3)));
    m_roofLabels->clear();
    m_roofLabels->add(
        tr("A: %1").arg(fromStd(core::formatFigure(ea, FigureId::DecodeTokensPerSecond))), pointA,
        m_pointA, colourA(), QPointF(12, 4), true);
    m_roofLabels->add(
        tr("B: %1").arg(fromStd(core::formatFigure(eb, FigureId::DecodeTokensPerSecond))), pointB,
        m_pointB, colourB(), QPointF(12, -24), true);

    // memory: the two serving stacks against their capacities
    const double unit = units == core::MemoryUnits::GiB ? core::kGiB : core::kGB;
    // horizontal categories run bottom-up: B first, so A reads on top
    auto setPair = [](QBarSet *set, double va, double vb) {
        if (set->count() != 2) {
            set->remove(0, set->count());
            set->append({vb, va});
        } else {
            set->replace(0, vb);
            set->replace(1, va);
        }
    };
    // the serving stack as the core splits it: weights, KV, runtime overhead, fragmentation
    for (const auto &[set, id] : {std::pair{m_weightsSet, FigureId::WeightsBytes},
                                  std::pair{m_kvSet, FigureId::KvBytesTotal},
                                  std::pair{m_overheadSet, FigureId::OverheadBytes},
                                  std::pair{m_fragmentationSet, FigureId::FragmentationBytes}})
        setPair(set, ea[id] / unit, eb[id] / unit);
    auto fitText = [&](const core::Evaluation &e) {
        return e.fits() ? tr("fits, %1 free")
                              .arg(fromStd(core::formatFigure(e, FigureId::HeadroomBytes, units)))
                        : tr("short by %1")
                              .arg(fromStd(core::formatBytes(-e[FigureId::HeadroomBytes], units)));
    };
    // A and B on the axis, what they mean in the key below: long category labels were cut
    const QStringList categories{tr("B"), tr("A")};
    if (m_barsY->categories() != categories) {
        m_barsY->clear();
        m_barsY->append(categories);
    }
    const double capA = ea[FigureId::CapacityBytes] / unit;
    const double capB = eb[FigureId::CapacityBytes] / unit;
    replaceIfChanged(m_capacityB, {QPointF(capB, 0.05), QPointF(capB, 0.95)});
    replaceIfChanged(m_capacityA, {QPointF(capA, 1.05), QPointF(capA, 1.95)});
    const double most = std::max({capA, capB, ea[FigureId::ServingBytesTotal] / unit,
                                  eb[FigureId::ServingBytesTotal] / unit});
    m_barsX->setRange(0, most * 1.08);
    m_barsX->applyNiceNumbers();
    m_barsX->setTitleText(
        tr("Device memory (%1)")
            .arg(units == core::MemoryUnits::GiB ? QStringLiteral("GiB") : QStringLiteral("GB")));
    QList<std::pair<QColor, QString>> key;
    for (QBarSet *set : {m_weightsSet, m_kvSet, m_overheadSet, m_fragmentationSet})
        key.append({set->color(), set->label()});
    m_barsKey->setText(
        tr("%1; dashes: each device's capacity.<br><b>A</b> %2; <b>B</b> %3")
            .arg(style::keyHtml(key), fitText(ea).toHtmlEscaped(), fitText(eb).toHtmlEscaped()));

    // cost
    const double costA = ea[FigureId::CostUsdPerMillionTokens];
    const double costB = eb[FigureId::CostUsdPerMillionTokens];
    for (auto [set, value] : {std::pair{m_costA, costA}, std::pair{m_costB, costB}}) {
        const double shown = std::isfinite(value) ? value : 0.0;
        if (set->count() != 1)
            set->append(shown);
        else
            set->replace(0, shown);
    }
    const double costTop =
        std::max({std::isfinite(costA) ? costA : 0.0, std::isfinite(costB) ? costB : 0.0, 0.01});
    m_costX->setRange(0, costTop * 1.15);
    m_costX->applyNiceNumbers();

    // the table
    m_table->setRowCount(int(m_rows.size()));
    QFont bold = m_table->font();
    bold.setBold(true);
    QColor tint = style::kYellow;
    tint.setAlphaF(0.28f);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const core::ComparedFigure &row = m_rows[i];
        const QStringList cells{fromStd(std::string(core::figureInfo(row.id).label)),
                                fromStd(core::formatFigure(ea, row.id, units)),
                                fromStd(core::formatFigure(eb, row.id, units)),
                                signedText(row, units), ratioText(row)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = m_table->item(int(i), c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(int(i), c, item);
            }
            item->setText(cells[c]);
            item->setFont(row.differs ? bold : m_table->font());
            item->setBackground(row.differs ? QBrush(tint) : QBrush());
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                          : Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    m_tableFit->refit();
}

QString CompareView::csv() const
{
    QString out = QStringLiteral("figure,a,b,b_minus_a,b_over_a\n");
    for (const core::ComparedFigure &row : m_rows)
        out += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(QString::fromLatin1(core::figureInfo(row.id).key.data(),
                                            qsizetype(core::figureInfo(row.id).key.size())),
                        fromStd(core::exactNumber(row.a)), fromStd(core::exactNumber(row.b)),
                        fromStd(core::exactNumber(row.difference)),
                        fromStd(core::exactNumber(row.ratio)));
    return out;
}

} // namespace views
