#include "checksview.h"

#include "scenariodocument.h"
#include "style.h"

#include "core/selection.h"
#include "core/units.h"

#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace views {

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/** Sorts by the number in Qt::UserRole (costs, statuses), not by the text shown. */
class NumericItem : public QTableWidgetItem
{
public:
    NumericItem(const QString &text, double key)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, key);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

// Colour and a symbol: the status reads in greyscale and for colour-blind viewers too.
struct StatusLook
{
    QString symbol;
    QColor colour;
    double order; ///< for sorting: pass, warn, fail, n/a
};

StatusLook look(core::CheckStatus status)
{
    switch (status) {
    case core::CheckStatus::Pass:
        return {QStringLiteral("\u2714"), style::kGreen, 0};
    case core::CheckStatus::Warn:
        return {QStringLiteral("!"), style::kOrange, 1};
    case core::CheckStatus::Fail:
        return {QStringLiteral("\u2718"), style::kVermillion, 2};
    case core::CheckStatus::NotApplicable:
        break;
    }
    return {QStringLiteral("\u2013"), style::grey(150), 3};
}

QColor tint(const QColor &colour)
{
    QColor light = colour;
    light.setAlphaF(0.18);
    return light;
}

} // namespace

ChecksView::ChecksView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_heading(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_reasoning(new QTextBrowser(this))
    , m_selection(std::make_unique<core::Selection>())
{
    setObjectName(QStringLiteral("checksView"));
    m_heading->setWordWrap(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->setVisible(false);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    QStringList headers{tr("Device"), tr("Weights"), tr("Verdict"), tr("Per month")};
    for (std::size_t i = 0; i < core::kCheckCount; ++i) {
        QString key = fromView(core::checkKey(core::CheckKind(i)));
        key[0] = key[0].toUpper();
        headers << key;
    }
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    for (std::size_t i = 0; i < core::kCheckCount; ++i) // the lesson's full name on hover
        m_table->horizontalHeaderItem(kFirstCheckColumn + int(i))
            ->setToolTip(fromView(core::checkTitle(core::CheckKind(i))));
    m_reasoning->setOpenLinks(false);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row, int column) {
        const QTableWidgetItem *device = row < 0 ? nullptr : m_table->item(row, 0);
        if (!device)
            return; // the table is being refilled
        const int candidate = device->data(Qt::UserRole + 1).toInt();
        showReasoning(candidate,
                      std::clamp(column - kFirstCheckColumn, -1, int(core::kCheckCount)));
    });

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_reasoning);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_heading);
    layout->addWidget(splitter, 1);
}

ChecksView::~ChecksView() = default;

const core::Selection &ChecksView::selection() const
{
    return *m_selection;
}

QString ChecksView::reasoning() const
{
    return m_reasoning->toPlainText();
}

void ChecksView::refresh()
{
    const core::Scenario &s = document()->scenario();
    *m_selection = core::selectDevice(s);
    const core::Selection &sel = *m_selection;
    const auto n = [](double v) { return style::number(v, 9); };
    const QString regime = sel.regime == core::Regime::Online     ? tr("online inference")
                           : sel.regime == core::Regime::Training ? tr("training")
                                                                  : tr("edge inference");
    QString heading =
        sel.regime == core::Regime::Training
            ? tr("<b>%1</b>: %2, %3 B/param recipe, micro-batch %4 x %5 tokens.")
                  .arg(regime, fromStd(s.model.name).toHtmlEscaped(),
                       style::number(s.training.bytesPerParameter()), n(s.training.microBatch),
                       n(s.training.sequenceLength))
            : tr("<b>%1</b>: %2, peak %3 concurrent sequences x %4 tokens (%5 prompt), first "
                 "token within %6, at least %7 tokens/s per user, %8 runtime and workspace.")
                  .arg(regime, fromStd(s.model.name).toHtmlEscaped(),
                       n(s.serving.concurrentSequences), n(s.serving.contextTokens),
                       n(s.serving.promptTokens),
                       fromStd(core::formatSeconds(s.serving.ttftTargetSeconds)),
                       style::number(s.serving.pacingTargetTokensPerSecond),
                       fromStd(core::formatBytes(s.serving.overheadGb * core::kGB,
                                                 document()->units())));
    if (!sel.problems.empty())
        heading += tr(" <span style=\"color:%1\">%2 candidate(s) could not be checked: %3</span>")
                       .arg(style::warning().name())
                       .arg(sel.problems.size())
                       .arg(fromStd(sel.problems.front().message).toHtmlEscaped());
    m_heading->setText(heading);

    const int currentRow = m_table->currentRow();
    const int currentColumn = m_table->currentColumn();
    const QSignalBlocker quiet(m_table); // no half-filled rows reach the reasoning panel
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(sel.candidates.size()));
    const core::Recommendation &rec = sel.recommendation;
    for (int row = 0; row < int(sel.candidates.size()); ++row) {
        const core::Candidate &c = sel.candidates[std::size_t(row)];
        const bool chosen =
            rec.found && c.deviceId == rec.deviceId && c.weightFormat == rec.weightFormat;
        auto *device = new NumericItem(fromStd(c.device.name.empty() ? c.deviceId : c.device.name),
                                       c.capacityBytes);
        device->setData(Qt::UserRole + 1, row);
        device->setToolTip(fromStd(c.deviceId));
        auto *format = new NumericItem(fromView(core::formatLabel(c.weightFormat)),
                                       core::nominalBytes(c.weightFormat));
        m_table->setItem(row, 0, device);
        m_table->setItem(row, 1, format);
        for (std::size_t i = 0; i < c.checks.size(); ++i) {
            const core::CheckResult &check = c.checks[i];
            const StatusLook status = look(check.status);
            auto *cell = new NumericItem(
                QStringLiteral("%1 %2").arg(status.symbol, fromStd(check.headline)), status.order);
            cell->setBackground(tint(status.colour));
            cell->setToolTip(fromStd(check.summary));
            m_table->setItem(row, kFirstCheckColumn + int(i), cell);
        }
        auto *verdict = new NumericItem(
            chosen ? tr("\u2605 recommended; %1").arg(fromStd(c.verdict)) : fromStd(c.verdict),
            chosen ? -1 : (c.passes ? 0 : 1));
        auto *cost = new NumericItem(fromStd(core::formatUsd(c.monthlyCostUsd)), c.monthlyCostUsd);
        cost->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, 2, verdict);
        m_table->setItem(row, 3, cost);
        QFont font = m_table->font();
        font.setBold(chosen);
        for (int column = 0; column < m_table->columnCount(); ++column)
            m_table->item(row, column)->setFont(font);
    }
    m_table->setSortingEnabled(true);
    // Columns as wide as their contents up to a limit, the text wrapping beyond it, so the
    // whole table fits a 1280-pixel window.
    m_table->resizeColumnsToContents();
    const int widest = int(150 * style::scale());
    for (int column = 0; column < m_table->columnCount() - 1; ++column)
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), widest));
    m_table->resizeRowsToContents();
    if (currentRow >= 0 && currentRow < m_table->rowCount()) {
        m_table->setCurrentCell(currentRow, currentColumn);
        showReasoning(m_table->item(currentRow, 0)->data(Qt::UserRole + 1).toInt(),
                      std::clamp(currentColumn - kFirstCheckColumn, -1, int(core::kCheckCount)));
    } else if (!sel.candidates.empty()) {
        showReasoning(0, int(core::CheckKind::Memory));
    }
}

void ChecksView::showReasoning(int candidate, int check)
{
    const core::Selection &sel = *m_selection;
    if (candidate < 0 || candidate >= int(sel.candidates.size()))
        return;
    const core::Candidate &c = sel.candidates[std::size_t(candidate)];
    QString html =
        tr("<b>%1, %2 weights</b>: %3")
            .arg(fromStd(c.device.name).toHtmlEscaped(),
                 fromView(core::formatLabel(c.weightFormat)), fromStd(c.verdict).toHtmlEscaped());
    auto describe = [&](const core::CheckResult &r) {
        const StatusLook status = look(r.status);
        return tr("<p><span style=\"color:%1\"><b>%2 %3</b></span> (%4): %5</p>")
            .arg(status.colour.darker(130).name(), status.symbol,
                 fromView(core::checkTitle(r.kind)), fromView(core::checkStatusKey(r.status)),
                 fromStd(r.summary).toHtmlEscaped());
    };
    if (check >= 0 && check < int(c.checks.size())) {
        html += describe(c.checks[std::size_t(check)]);
    } else {
        for (const core::CheckResult &r : c.checks)
            html += describe(r);
    }
    m_reasoning->setHtml(html);
}

QString ChecksView::csv() const
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < m_table->columnCount(); ++column)
        header << m_table->horizontalHeaderItem(column)->text();
    lines << header.join(QLatin1Char(','));
    auto quote = [](QString text) -> QString {
        return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
               QLatin1Char('"');
    };
    for (const core::Candidate &c : m_selection->candidates) {
        QStringList cells{quote(QString::fromStdString(c.deviceId)),
                          fromView(core::formatKey(c.weightFormat))};
        for (const core::CheckResult &check : c.checks)
            cells << quote(fromView(core::checkStatusKey(check.status)) + QStringLiteral(": ") +
                           QString::fromStdString(check.headline));
        cells.insert(2, quote(QString::fromStdString(c.verdict)));
        cells.insert(3, QString::number(c.monthlyCostUsd));
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views
