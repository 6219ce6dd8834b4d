// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Engine techniques (`engine`, issue #27): what the scenario's engine section changes, each
// technique beside the plain figure: speculative decoding (tokens/s, where it stops paying),
// prefix caching (prefill, first token, cost per request, sequences that still fit) and prefill
// and decode on separate pools (the KV moved, first token, what each pool sustains). A technique
// that is off says which input switches it on.

#include "views/widgets/view.h"

class QTextBrowser;

namespace views {

class EngineView : public View
{
    Q_OBJECT

public:
    explicit EngineView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("engine"); }
    QString title() const override { return tr("Engine techniques"); }
    QString figureHtml() override;
    /** The text shown, for tests. */
    QString shownText() const;

protected:
    void refresh() override;

private:
    QTextBrowser *m_text;
    QString m_shownHtml;
};

} // namespace views
