// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Base of every view: linked to the document (a hidden view marks itself dirty and refreshes
// when shown), exports through one render function to PNG, SVG and PDF, copies to the
// clipboard, and asks the explanation panel to show a figure's formula.

#include "views/document/scenariodocument.h"

#include "core/physics/evaluation.h"

#include <QWidget>

class QPainter;

namespace views {

class View : public QWidget
{
    Q_OBJECT

public:
    explicit View(ScenarioDocument *document, QWidget *parent = nullptr);

    /** The --snapshot name, e.g. "roofline". */
    virtual QString snapshotName() const = 0;
    /** Title for menus and exports. */
    virtual QString title() const = 0;
    /** The view's data as CSV, for "Copy data as CSV" (empty when it has none). */
    virtual QString csv() const { return {}; }

    /** Draws the view into `target` at its logical size (vector on SVG and PDF devices). */
    virtual void render(QPainter &painter, const QRectF &target);

    /** render(), recorded first and replayed scaled into `target`: for high-resolution pages,
     *  where Qt Charts 6.4 painted directly leaves all but the first legend entry out. */
    void renderRecorded(QPainter &painter, const QRectF &target);
    /** The view's figure without its controls (a chart without the pickers and spin boxes
     *  beside it): by default its largest chart, or the whole view when it has none. */
    virtual QWidget *figureWidget();
    /** The figure as rich text, for a view whose figure is words or a table (a diagnosis, a
     *  decision): printed as text that flows at the page's type size, never as a screenshot of
     *  a text box with its scroll bar. Empty when the view draws its figure. */
    virtual QString figureHtml() { return {}; }
    /** The figure alone, recorded and replayed scaled into `target` (handouts, exports). A
     *  chart is laid out at `chartSize` first when one is given (its text stays the size it is
     *  on screen, whatever the page's aspect). */
    void renderFigure(QPainter &painter, const QRectF &target, QSize chartSize = {});
    /** Writes PNG, SVG or PDF by the file's suffix. No dialog: errors come back in `error`. */
    bool exportTo(const QString &filePath, QString *error = nullptr);
    void copyImage();
    void copyCsv();

    ScenarioDocument *document() const { return m_document; }
    /** Views that step through a sequence (the matrix multiplication) show step `step`
     *  (--snapshot VIEW --step N); the others ignore it. */
    virtual void setStep(int step) { (void)step; }
    /** Brings the view up to date now if it is stale (snapshots, tests). */
    void ensureCurrent();
    /** How many times the view has refreshed (tests check that nothing refreshes for naught). */
    int refreshCount() const { return m_refreshCount; }

signals:
    void explainRequested(core::FigureId id);
    /** The user asked for an input's editor ("engine.speculative_tokens"): View > All Inputs. */
    void inputRequested(const QString &path);

protected:
    /** Reads the document and updates every series and label. */
    virtual void refresh() = 0;
    /** The document changes this view shows: by default the scenario, its results, the memory
     *  units and the figures concealed from a class; a save (File) alone never refreshes a view. */
    virtual ScenarioDocument::Changes dependsOn() const
    {
        return ScenarioDocument::Inputs | ScenarioDocument::Results | ScenarioDocument::Units |
               ScenarioDocument::Concealed;
    }
    void showEvent(QShowEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    /** True while a refresh must show the current state before it returns (ensureCurrent:
     *  snapshots, exports, tests); false after an edit, when a refresh may wait for a result
     *  computed on a worker (markStale, then catchUp when it arrives). */
    bool mustCompleteRefresh() const { return m_mustComplete; }
    /** From refresh(): the current state could not be shown yet. */
    void markStale() { m_dirty = true; }
    /** Refreshes now if the view is stale and visible (a worker's result has arrived). */
    void catchUp();

private:
    void onDocumentChanged(ScenarioDocument::Changes changes);
    void doRefresh();
    void exportWithDialog(const QString &suffix);

    ScenarioDocument *m_document;
    bool m_dirty = true;
    bool m_mustComplete = false;
    int m_refreshCount = 0;
};

} // namespace views
