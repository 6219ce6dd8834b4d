// SPDX-License-Identifier: GPL-3.0-or-later
#include "checksview.h"

#include "views/document/scenariodocument.h"
#include "views/io/dataexport.h"
#include "views/widgets/steadylabel.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/estimate.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"

#include <QAbstractItemDelegate>
#include <QEvent>
#include <QFontMetrics>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QStyleOptionViewItem>
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

/** The checks table, able to say how tall one cell's text is where it stands: a row whose
 *  cells changed is measured by those cells alone, not all twelve (issue #46: measuring whole
 *  rows was most of a drag's first steps, when most rows' texts change). */
class CheckTable : public QTableWidget
{
public:
    using QTableWidget::QTableWidget;

    /** The height the cell at (row, column) asks for at its column's width, as QTableView's
     *  resizeRowToContents measures each cell (word wrap, the grid line), remembered by its
     *  column, width, weight and text: a drag shows the same texts again and again; 0 for a
     *  cell of one line that fits its column (every row is at least one line high). */
    int cellHeightHint(int row, int column)
    {
        const QTableWidgetItem *cell = item(row, column);
        QString key = QString::number(column) + QLatin1Char(':') +
                      QString::number(columnWidth(column)) +
                      (cell && cell->font().bold() ? QLatin1Char('b') : QLatin1Char('r')) +
                      (cell ? cell->text() : QString());
        if (const auto known = m_hints.constFind(key); known != m_hints.constEnd())
            return *known;
        const int hint = oneLine(cell, column) ? 0 : measuredHeight(row, column);
        if (m_hints.size() > 8192) // far above a drag's distinct texts
            m_hints.clear();
        m_hints.insert(key, hint);
        return hint;
    }

    /** Forgets the heights measured: the columns or the style changed. */
    void forgetHeights() { m_hints.clear(); }

protected:
    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange)
            forgetHeights();
        QTableWidget::changeEvent(event);
    }

private:
    QHash<QString, int> m_hints; ///< forgotten when the width, style or font change

    /** Whether the cell is one short line, which every row holds: a width says so without
     *  laying the text out. */
    bool oneLine(const QTableWidgetItem *cell, int column) const
    {
        if (!cell)
            return true;
        const QString text = cell->text();
        // the style's text margins, and slack for its rounding
        const int margins =
            2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1) + 8;
        return !text.contains(QLatin1Char('\n')) && !text.contains(QChar::LineSeparator) &&
               QFontMetrics(cell->data(Qt::FontRole).isValid() ? cell->font() : font())
                           .horizontalAdvance(text) +
                       margins <=
                   columnWidth(column);
    }

    int measuredHeight(int row, int column) const
    {
        const QModelIndex index = model()->index(row, column);
        QStyleOptionViewItem option;
        initViewItemOption(&option);
        if (wordWrap()) { // the height for the column's width, as Qt's own row hint takes it
            option.rect.setY(rowViewportPosition(row));
            option.rect.setHeight(std::max(1, rowHeight(row)));
            option.rect.setX(columnViewportPosition(column));
            option.rect.setWidth(columnWidth(column) - (showGrid() ? 1 : 0));
        }
        const int hint = itemDelegateForIndex(index)->sizeHint(option, index).height();
        return showGrid() ? hint + 1 : hint;
    }
};

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

/** One cell as the table shows it. */
struct Cell
{
    QString text;
    double order = 0;
    QString toolTip;
    QBrush background;
};

/** Puts `cell` into `item`, touching only what changed: a slider step on a table of every
 *  device preset rewrites hundreds of cells, most of them unchanged, and each change is a
 *  signal (and, in the sorted column, a sort). */
bool putCell(QTableWidgetItem *item, const Cell &cell, const QFont &font, bool bold)
{
    bool reshaped = false; // what the cell's height depends on: its text and its font
    if (item->text() != cell.text) {
        item->setText(cell.text);
        reshaped = true;
    }
    if (item->data(Qt::UserRole).toDouble() != cell.order)
        item->setData(Qt::UserRole, cell.order);
    if (item->toolTip() != cell.toolTip)
        item->setToolTip(cell.toolTip);
    if (item->background() != cell.background)
        item->setBackground(cell.background);
    if (item->font().bold() != bold) {
        QFont styled = font;
        styled.setBold(bold);
        item->setFont(styled);
        reshaped = true;
    }
    return reshaped;
}

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
    , m_heading(new SteadyLabel(this))
    , m_table(new CheckTable(this))
    , m_reasoning(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("checksView"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->setVisible(false);
    m_fit = new TableFitter(m_table, TableFitter::Rows::Scroll);
    QStringList headers{tr("Option"), tr("Verdict"), tr("Devices"), tr("Monthly")};
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
        const int candidate = device->data(kCandidateRole).toInt();
        showReasoning(candidate,
                      std::clamp(column - kFirstCheckColumn, -1, int(core::kCheckCount)));
    });

    // rows come into view by scrolling, sorting or a taller table: measure what changed there
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this,
            &ChecksView::measureRowsInView);
    // after a sort the user asked for (a header's click): the model says so once it is done
    connect(m_table->model(), &QAbstractItemModel::layoutChanged, this, [this] {
        if (!m_refreshing)
            measureRowsInView();
    });
    m_table->viewport()->installEventFilter(this);

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
    return document()->selection();
}

QString ChecksView::reasoning() const
{
    return m_reasoning->toPlainText();
}

QString ChecksView::tableHtml(const core::Selection &selection, bool bestPerDevice)
{
    auto colour = [](core::CheckStatus status) {
        switch (status) {
        case core::CheckStatus::Pass:
            return QStringLiteral("#d5efe6");
        case core::CheckStatus::Warn:
            return QStringLiteral("#fbeccc");
        case core::CheckStatus::Fail:
            return QStringLiteral("#f6dccc");
        case core::CheckStatus::NotApplicable:
            break;
        }
        return QStringLiteral("#eeeeee");
    };
    auto symbol = [](core::CheckStatus status) {
        switch (status) {
        case core::CheckStatus::Pass:
            return QStringLiteral("\u2714");
        case core::CheckStatus::Warn:
            return QStringLiteral("!");
        case core::CheckStatus::Fail:
            return QStringLiteral("\u2718");
        case core::CheckStatus::NotApplicable:
            break;
        }
        return QStringLiteral("\u2013");
    };
    auto esc = [](const std::string &text) { return fromStd(text).toHtmlEscaped(); };
    // one row a device (a slide, a figure): the option in one cell and no verdict column (the
    // marks and colours say it), so eight columns print large (eleven printed at 17 px)
    const bool compact = bestPerDevice;
    QString out = tr("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" "
                     "style=\"border-collapse:collapse\"><thead><tr>");
    // a training decision prices the run, not a month (issue #45)
    const bool training = selection.regime == core::Regime::Training;
    const QString money = training ? tr("Run cost") : tr("Per month");
    out += compact ? tr("<th>Option</th><th>%1</th>").arg(money)
                   : tr("<th>Device</th><th>Weights</th><th>%1</th><th>%2</th>")
                         .arg(training ? tr("Devices") : tr("Fleet"), money);
    // a long word in a narrow column may break, with a hyphen, after its sixth letter: the
    // report's landscape table printed "Compatibilit" over "y" (issue #42)
    static const QRegularExpression longWord(QStringLiteral("\\b(\\w{6})(\\w{5,})\\b"));
    for (std::size_t i = 0; i < core::kCheckCount; ++i)
        out += QStringLiteral("<th>%1</th>")
                   .arg(fromView(core::checkTitle(core::CheckKind(i), selection.regime))
                            .replace(longWord, QStringLiteral("\\1\u00ad\\2")));
    if (!compact)
        out += tr("<th>Verdict</th>");
    out += QStringLiteral("</tr></thead>"); // repeated on every page the table runs to
    const core::Candidate *best = core::recommendedCandidate(selection);
    std::vector<const core::Candidate *> rows;
    if (bestPerDevice)
        rows = core::alternatives(selection, selection.candidates.size());
    else
        for (const core::Candidate &c : selection.candidates)
            rows.push_back(&c);
    for (const core::Candidate *row : rows) {
        const core::Candidate &c = *row;
        const double usd = c.trainingPlan ? c.trainingPlan->usd : c.monthlyCostUsd;
        const QString month = std::isfinite(usd) ? esc(core::formatUsd(usd)) : tr("price needed");
        const QString star = &c == best ? QStringLiteral("\u2605 ") : QString();
        if (compact)
            out += QStringLiteral("<tr><td>%1<b>%2</b>, %3<br>%4</td><td align=\"right\">%5</td>")
                       .arg(star, esc(c.device.name),
                            fromStd(core::weightFormatsLabel(c.scenario.serving)),
                            esc(core::fleetLabel(c)), month);
        else
            out +=
                QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td align=\"right\">%5</td>")
                    .arg(star, esc(c.device.name),
                         fromStd(core::weightFormatsLabel(c.scenario.serving)),
                         esc(core::fleetLabel(c)), month);
        for (const core::CheckResult &check : c.checks)
            out += QStringLiteral("<td bgcolor=\"%1\">%2 %3</td>")
                       .arg(colour(check.status), symbol(check.status), esc(check.headline));
        if (!compact)
            out += QStringLiteral("<td>%1</td>").arg(esc(c.verdict));
        out += QStringLiteral("</tr>");
    }
    out += tr("</table><p>\u2714 pass, ! warning, \u2718 fail, \u2013 not applicable.");
    if (rows.size() < selection.candidates.size())
        out += tr(" Each device's best weight format; %1 more options (other formats) are in the "
                  "report's checks table.")
                   .arg(selection.candidates.size() - rows.size());
    return out + QStringLiteral("</p>");
}

QString ChecksView::figureHtml()
{
    ensureCurrent();
    return tableHtml(selection(), true);
}

void ChecksView::refresh()
{
    const core::Selection *ready =
        mustCompleteRefresh() ? &document()->selection() : document()->selectionForLiveView();
    if (!ready) { // being checked on a worker: the table greys until the new answer is in
        markStale();
        m_table->setEnabled(false);
        return;
    }
    m_table->setEnabled(true);
    const core::Scenario &s = document()->scenario();
    const core::Selection &sel = *ready;
    const auto n = [](double v) { return style::number(v, 9); };
    const QString regime = sel.regime == core::Regime::Online     ? tr("online inference")
                           : sel.regime == core::Regime::Training ? tr("training")
                                                                  : tr("edge inference");
    QString heading =
        sel.regime == core::Regime::Training
            ? tr("<b>%1</b>: %2, %3 B/param recipe, %4 tokens in sequences of %5%6; each "
                 "option's layout searched (memory check).")
                  .arg(regime, fromStd(s.model.name).toHtmlEscaped(),
                       style::number(s.training.bytesPerParameter()),
                       core::isSet(s.training.tokens)
                           ? fromStd(core::formatCount(s.training.tokens))
                           : tr("20 per parameter"),
                       n(s.training.sequenceLength),
                       core::isSet(s.training.deadlineDays)
                           ? tr(", within %1 days").arg(style::number(s.training.deadlineDays))
                           : QString())
            : tr("<b>%1</b>: %2, peak %3 concurrent sequences x %4 tokens (%5 prompt), first "
                 "token within %6, at least %7 tokens/s per user, %8 runtime and workspace.")
                  .arg(regime, fromStd(s.model.name).toHtmlEscaped(),
                       n(s.serving.concurrentSequences), n(s.serving.contextTokens),
                       n(s.serving.promptTokens),
                       fromStd(core::formatSeconds(s.serving.ttftTargetSeconds)),
                       style::number(s.serving.pacingTargetTokensPerSecond),
                       fromStd(core::formatBytes(s.serving.overheadGb * core::kGB,
                                                 document()->units())));
    if (QTableWidgetItem *money = m_table->horizontalHeaderItem(kCostColumn))
        money->setText(sel.regime == core::Regime::Training ? tr("Run cost") : tr("Monthly"));
    // a training run's checks in its own words: "Time" over the days, not "Latency"
    const bool training = sel.regime == core::Regime::Training;
    for (std::size_t i = 0; i < core::kCheckCount; ++i) {
        const auto kind = core::CheckKind(i);
        QString key = fromView(core::checkKey(kind));
        key[0] = key[0].toUpper();
        const QString shown = !training                               ? key
                              : kind == core::CheckKind::Latency      ? tr("Time")
                              : kind == core::CheckKind::Availability ? tr("Failures")
                                                                      : key;
        if (QTableWidgetItem *header = m_table->horizontalHeaderItem(kFirstCheckColumn + int(i))) {
            if (header->text() != shown)
                header->setText(shown);
            header->setToolTip(fromView(core::checkTitle(kind, sel.regime)));
        }
    }
    if (sel.regime != core::Regime::Training) // which speeds the latency and cost columns use
    {
        const core::EstimatesUsed used = core::estimatesUsed(sel);
        switch (used) {
        case core::EstimatesUsed::SpeedOfLight:
            heading += tr(" Speeds: <b>speed of light</b> (a ceiling: engines measure slower).");
            break;
        case core::EstimatesUsed::Typical:
            heading += tr(" Speeds: <b>typical estimate</b>, each device by its own class.");
            break;
        case core::EstimatesUsed::Calibrated:
            heading += tr(" Speeds: <b>calibrated</b> (the scenario's profile).");
            break;
        case core::EstimatesUsed::TypicalAndSpeedOfLight:
        case core::EstimatesUsed::Mixed:
            heading +=
                tr(" Speeds: <b>%1</b> (the estimate picker chooses one for all).")
                    .arg(fromStd(std::string(core::estimatesUsedText(used))).toHtmlEscaped());
            break;
        }
    }
    if (!sel.problems.empty())
        heading += tr(" <span style=\"color:%1\">%2 candidate(s) could not be checked: %3</span>")
                       .arg(style::warning().name())
                       .arg(sel.problems.size())
                       .arg(fromStd(sel.problems.front().message).toHtmlEscaped());
    m_heading->setText(heading);

    const int rows = int(sel.candidates.size());
    QStringList candidateKeys; // which options the rows hold: another set is measured anew
    for (const core::Candidate &c : sel.candidates)
        candidateKeys << fromStd(c.deviceId) + QLatin1Char(':') +
                             fromView(core::formatKey(c.weightFormat));
    const bool reshaped = candidateKeys != m_candidateKeys || m_table->font() != m_measuredFont;
    const QSignalBlocker quiet(m_table); // no half-filled rows reach the reasoning panel
    m_refreshing = true;                 // the rows in view are measured once the table is filled
    const auto refreshed = qScopeGuard([this] { m_refreshing = false; });
    if (reshaped) {
        // Another set of options: new rows, filled unsorted (a sorted table moves a row while
        // it is filled), then sorted once.
        m_candidateKeys = candidateKeys;
        m_measuredFont = m_table->font();
        m_table->setSortingEnabled(false);
        m_table->clearContents();
        m_table->setRowCount(rows);
        m_items.assign(std::size_t(rows), {});
        m_unmeasured.assign(std::size_t(rows), {}); // the refit below measures every row
        static_cast<CheckTable *>(m_table)->forgetHeights();
        for (int row = 0; row < rows; ++row) {
            for (int column = 0; column < m_table->columnCount(); ++column) {
                auto *item = new NumericItem({}, 0);
                m_table->setItem(row, column, item);
                m_items[std::size_t(row)].push_back(item);
            }
            m_items[std::size_t(row)][0]->setData(kCandidateRole, row);
            for (int column : {kFleetColumn, kCostColumn})
                m_items[std::size_t(row)][std::size_t(column)]->setTextAlignment(Qt::AlignRight |
                                                                                 Qt::AlignVCenter);
        }
    }
    // The same options (a slider step): each candidate's items are updated where they stand,
    // sorting left on; a row moves only when its key in the sorted column changes order, so the
    // table is neither re-sorted nor laid out again on every step.
    const core::Recommendation &rec = sel.recommendation;
    std::vector<QList<int>> changedColumns(static_cast<std::size_t>(rows)); // by candidate
    // where each candidate stands before the update: a row height belongs to the place, not to
    // the candidate, so one that sorting moves is measured again where it lands
    std::vector<int> placeBefore(std::size_t(rows), -1);
    std::vector<int> heightBefore(std::size_t(rows), -1); // measured for the candidate there
    if (!reshaped)
        for (int row = 0; row < rows; ++row) {
            placeBefore[std::size_t(row)] = m_table->row(m_items[std::size_t(row)][0]);
            heightBefore[std::size_t(row)] = m_table->rowHeight(placeBefore[std::size_t(row)]);
        }
    for (int row = 0; row < rows; ++row) {
        const core::Candidate &c = sel.candidates[std::size_t(row)];
        const bool chosen =
            rec.found && c.deviceId == rec.deviceId && c.weightFormat == rec.weightFormat;
        QList<Cell> cells(m_table->columnCount());
        // the option: a device and its weights' format (one column: the table fits 1280 pixels)
        cells[0] = {tr("%1\n%2 weights")
                        .arg(fromStd(c.device.name.empty() ? c.deviceId : c.device.name),
                             fromStd(core::weightFormatsLabel(c.scenario.serving))),
                    c.capacityBytes + core::nominalBytes(c.weightFormat),
                    fromStd(c.deviceId),
                    {}};
        // the verdict in a word or two; which checks warn or fail is in their own columns
        // and the whole sentence on hover
        const auto warnings = std::count_if(c.checks.begin(), c.checks.end(), [](const auto &k) {
            return k.status == core::CheckStatus::Warn;
        });
        const QString verdict = !c.passes       ? tr("fails")
                                : warnings == 0 ? tr("passes")
                                : warnings == 1 ? tr("passes, 1 warning")
                                                : tr("passes, %1 warnings").arg(warnings);
        cells[kVerdictColumn] = {chosen ? tr("\u2605 recommended; %1").arg(verdict) : verdict,
                                 chosen ? -1.0 : (c.passes ? 0.0 : 1.0),
                                 fromStd(c.verdict),
                                 {}};
        // the device count first (what it sorts by), then how the fleet is split
        const QString devices = style::number(c.devices, 9);
        cells[kFleetColumn] = {
            c.trainingPlan ? tr("%1 devices").arg(devices)
            : c.devicesPerReplica() > 1
                ? tr("%1 = %2 x %3")
                      .arg(devices, style::number(c.replicas, 9),
                           fromStd(core::shapeLabel(c.tensorParallel, c.pipelineParallel)))
                : (c.replicas == 1 ? tr("1 replica")
                                   : tr("%1 replicas").arg(style::number(c.replicas, 9))),
            c.devices,
            fromStd(core::fleetLabel(c)),
            {}};
        // no price: sorted last, never borrowed from another device; a training run's whole cost
        const double money = c.trainingPlan ? c.trainingPlan->usd : c.monthlyCostUsd;
        cells[kCostColumn] = {core::isSet(money) ? fromStd(core::formatUsd(money))
                                                 : tr("price needed"),
                              core::isSet(money) ? money : 1e300,
                              {},
                              {}};
        for (std::size_t i = 0; i < c.checks.size(); ++i) {
            const core::CheckResult &check = c.checks[i];
            const StatusLook status = look(check.status);
            cells[kFirstCheckColumn + int(i)] = {
                QStringLiteral("%1 %2").arg(status.symbol, fromStd(check.headline)), status.order,
                fromStd(check.summary), tint(status.colour)};
        }
        // the cells whose height may have changed: measured again below, the others are
        // inside their row's height already
        QList<int> &changedAt = changedColumns[std::size_t(row)];
        for (int column = 0; column < cells.size(); ++column)
            if (putCell(m_items[std::size_t(row)][std::size_t(column)], cells[column],
                        m_table->font(), chosen))
                changedAt << column;
    }
    // Columns as wide as their contents where the table has room, the longest texts wrapping
    // where it has not, so the whole table fits the window's width. They are measured when the
    // candidates change, not on each step: columns that jump while a slider moves are hard to
    // read, and measuring every cell was most of a step's cost with every device preset as a
    // candidate.
    if (reshaped) {
        m_table->setSortingEnabled(true);
        m_fit->refit();
    } else {
        // A row's height belongs to its place, not to the candidate: one that sorting moved
        // takes the height measured for it where it stood. The cells that changed are measured
        // when their row is in view (issue #46: measuring every row a step changed was most of
        // a drag's first steps), and a row grows where one needs it, never shrinks (a line too
        // many, never a clipped one). A refit measures every row again.
        for (int candidate = 0; candidate < rows; ++candidate) {
            const int place = m_table->row(m_items[std::size_t(candidate)][0]);
            const int height = heightBefore[std::size_t(candidate)];
            if (height != m_table->rowHeight(place))
                m_table->setRowHeight(place, height);
            QList<int> &pending = m_unmeasured[std::size_t(candidate)];
            for (const int column : changedColumns[std::size_t(candidate)])
                if (!pending.contains(column))
                    pending << column;
        }
        measureRowsInView();
    }
    const int currentRow = m_table->currentRow();
    if (currentRow >= 0 && currentRow < m_table->rowCount()) {
        showReasoning(
            m_table->item(currentRow, 0)->data(kCandidateRole).toInt(),
            std::clamp(m_table->currentColumn() - kFirstCheckColumn, -1, int(core::kCheckCount)));
    } else if (!sel.candidates.empty()) {
        showReasoning(0, int(core::CheckKind::Memory));
    }
}

bool ChecksView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize) {
        // another width: the columns are fitted again, and the texts wrap anew
        static_cast<CheckTable *>(m_table)->forgetHeights();
        measureRowsInView();
    }
    return View::eventFilter(watched, event);
}

void ChecksView::measureRowsInView()
{
    if (m_table->rowCount() == 0 || m_unmeasured.size() != std::size_t(m_table->rowCount()))
        return;
    auto *table = static_cast<CheckTable *>(m_table);
    const int first = std::max(0, m_table->rowAt(0));
    int last = m_table->rowAt(m_table->viewport()->height() - 1);
    if (last < 0)
        last = m_table->rowCount() - 1;
    // a row that grows pushes the next ones down: the rows in view are found again after it
    for (int place = first; place <= last && place < m_table->rowCount(); ++place) {
        const int candidate = m_table->item(place, 0)->data(kCandidateRole).toInt();
        QList<int> &pending = m_unmeasured[std::size_t(candidate)];
        if (pending.isEmpty())
            continue;
        int height = m_table->rowHeight(place);
        for (const int column : std::as_const(pending))
            height = std::max(height, table->cellHeightHint(place, column));
        pending.clear();
        if (height != m_table->rowHeight(place)) {
            m_table->setRowHeight(place, height);
            last = m_table->rowAt(m_table->viewport()->height() - 1);
            if (last < 0)
                last = m_table->rowCount() - 1;
        }
    }
}

void ChecksView::showReasoning(int candidate, int check)
{
    const core::Selection &sel = document()->selection();
    if (candidate < 0 || candidate >= int(sel.candidates.size()))
        return;
    const core::Candidate &c = sel.candidates[std::size_t(candidate)];
    QString html = tr("<b>%1, %2 weights</b>: %3")
                       .arg(fromStd(c.device.name).toHtmlEscaped(),
                            fromStd(core::weightFormatsLabel(c.scenario.serving)),
                            fromStd(c.verdict).toHtmlEscaped());
    auto describe = [&](const core::CheckResult &r) {
        const StatusLook status = look(r.status);
        return tr("<p><span style=\"color:%1\"><b>%2 %3</b></span> (%4): %5</p>")
            .arg(status.colour.darker(130).name(), status.symbol,
                 fromView(core::checkTitle(r.kind, c.scenario.wizard.regime)),
                 fromView(core::checkStatusKey(r.status)), fromStd(r.summary).toHtmlEscaped());
    };
    if (check >= 0 && check < int(c.checks.size())) {
        html += describe(c.checks[std::size_t(check)]);
    } else {
        for (const core::CheckResult &r : c.checks)
            html += describe(r);
    }
    if (html != m_shownReasoning) { // a step that leaves the reasoning alone lays out nothing
        m_reasoning->setHtml(html);
        m_shownReasoning = html;
    }
}

QString ChecksView::csv() const
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < m_table->columnCount(); ++column)
        header << m_table->horizontalHeaderItem(column)->text();
    lines << header.join(QLatin1Char(','));
    for (const core::Candidate &c : document()->selection().candidates) {
        QStringList cells{csvCell(QString::fromStdString(c.deviceId)),
                          fromView(core::formatKey(c.weightFormat))};
        for (const core::CheckResult &check : c.checks)
            cells << csvCell(fromView(core::checkStatusKey(check.status)) + QStringLiteral(": ") +
                             QString::fromStdString(check.headline));
        cells.insert(2, csvCell(QString::fromStdString(c.verdict)));
        cells.insert(3, csvCell(QString::fromStdString(core::fleetLabel(c))));
        cells.insert(4, QString::number(c.devices));
        cells.insert(5, core::isSet(c.monthlyCostUsd) ? QString::number(c.monthlyCostUsd)
                                                      : QString()); // no price: none borrowed
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views
