// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bottom panel: the formula of whatever number is hovered or selected, the same formula
// with the numbers put in, where each input came from, and what the toy model leaves out.

#include "core/physics/evaluation.h"

#include <QTextBrowser>

namespace views {

class ScenarioDocument;

class ExplanationPanel : public QTextBrowser
{
    Q_OBJECT

public:
    explicit ExplanationPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    void showFigure(core::FigureId id);
    core::FigureId currentFigure() const { return m_id; }

private:
    void refresh();
    void setHtmlIfChanged(const QString &html);

    ScenarioDocument *m_document;
    core::FigureId m_id = core::FigureId::DecodeStepSeconds;
    QString m_html;
};

} // namespace views
