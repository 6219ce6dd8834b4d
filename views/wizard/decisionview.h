// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The decision (`decision`): the recommended device, weight format and replicas with the reason,
// what each rejected option lacks, the hosted-API fallback, which assumption would flip the
// verdict and at what value, and the serving-engine limits that enforce it (lesson l.237).
// "Apply to Scenario" makes the recommendation the scenario's device and format: one undo step.

#include "views/widgets/view.h"

#include <QElapsedTimer>
#include <QTimer>

class QPushButton;
class QTextBrowser;

namespace core {
struct Selection;
}

namespace views {

class DecisionView : public View
{
    Q_OBJECT

public:
    explicit DecisionView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~DecisionView() override;

    QString snapshotName() const override { return QStringLiteral("decision"); }
    QString title() const override { return tr("Device-selection decision"); }
    QString csv() const override;

    /** The decision as plain text. */
    QString text() const;
    QPushButton *applyButton() const { return m_apply; }
    QString figureHtml() override;
    /** Applies the recommendation to the document (one undo step); false when there is none. */
    bool applyRecommendation();

    /** The decision as HTML (shared with the report). `otherOptions` caps the list of the
     *  other options (the rest are counted and left to the checks table); -1 lists them all. */
    static QString decisionHtml(const core::Selection &selection, int otherOptions = -1,
                                bool printed = false);
    /** How many other options the view lists before pointing to the checks table. */
    static constexpr int kOtherOptionsShown = 8;
    /** While a value keeps changing (a slider drag), the text is laid out at most this often:
     *  laying it out is two thirds of a Wizard-tab step, and prose is read after the drag. */
    static constexpr int kLayoutIntervalMs = 120;
    /** Whether a newer text waits for its layout (the next one is at most kLayoutIntervalMs
     *  away; text() and render() lay it out at once). */
    bool textPending() const { return !m_pendingHtml.isEmpty(); }

    void render(QPainter &painter, const QRectF &target) override;

protected:
    void refresh() override;

private:
    void showPendingText() const;

    QTextBrowser *m_browser;
    QPushButton *m_apply;
    // the text shown, the one waiting, and when it was last laid out: text() is const and
    // lays out what waits, so these three are mutable
    mutable QString m_shownHtml;
    mutable QString m_pendingHtml;
    mutable QElapsedTimer m_sinceLayout;
    QTimer m_layoutTimer;
};

} // namespace views
