#pragma once

// A number on screen that explains itself: hovering or clicking it asks the explanation panel
// for its formula. It shows the lesson's printed value beside it when the scenario is the
// lesson's setting for that number.

#include "core/evaluation.h"

#include <QLabel>

namespace views {

class ScenarioDocument;

class FigureLabel : public QLabel
{
    Q_OBJECT

public:
    FigureLabel(core::FigureId id, QWidget *parent = nullptr);

    core::FigureId figure() const { return m_id; }
    /** Shows the figure's current value (and lesson badge) from the document. */
    void update(const ScenarioDocument &document);
    /** Shows `text` instead of the formatted figure (e.g. "32.7x left of the ridge"). */
    void setCustomText(const QString &text, const ScenarioDocument &document);

signals:
    void activated(core::FigureId id);

protected:
    void enterEvent(QEnterEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QString badge(const ScenarioDocument &document) const;

    core::FigureId m_id;
};

} // namespace views
