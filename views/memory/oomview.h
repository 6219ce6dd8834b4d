// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The OOM diagnosis (`oom`): the lesson's five steps with the current scenario's numbers: the
// symptom, the three memory numbers and the tools that report each, the accounting line by
// line, the levers with their computed effect and price, and the guarded admission limit.

#include "views/widgets/view.h"

class QTextBrowser;

namespace views {

class OomView : public View
{
    Q_OBJECT

public:
    explicit OomView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("oom"); }
    QString title() const override { return tr("Diagnosing an out-of-memory failure"); }
    QString csv() const override;
    QString figureHtml() override;
    /** The diagnosis as plain text (what is shown, without formatting). */
    QString text() const;

protected:
    void refresh() override;

private:
    QTextBrowser *m_browser;
    QString m_html; ///< the diagnosis as set, for print (the browser's toHtml() pins its font)
};

} // namespace views
