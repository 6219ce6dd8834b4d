// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A number on screen that explains itself: hovering or clicking it asks the explanation panel
// for its formula. It shows the lesson's printed value beside it when the scenario is the
// lesson's setting for that number. Plain-text labels: a slider step updates a dozen of them,
// and rich text would lay out a text document for each.

#include "core/physics/evaluation.h"

#include <QWidget>

class QLabel;

namespace views {

class ScenarioDocument;

class FigureLabel : public QWidget
{
    Q_OBJECT

public:
    FigureLabel(core::FigureId id, QWidget *parent = nullptr);

    core::FigureId figure() const { return m_id; }
    /** Shows the figure's current value (and lesson badge) from the document. */
    void update(const ScenarioDocument &document);
    /** Shows `text` instead of the formatted figure (e.g. "32.7x left of the ridge"). */
    void setCustomText(const QString &text, const ScenarioDocument &document);
    QString text() const;
    QString badgeText() const;

signals:
    void activated(core::FigureId id);

protected:
    void enterEvent(QEnterEvent *event) override;
    void changeEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void show(const QString &value, const ScenarioDocument &document);
    void fitBadgeFont();

    core::FigureId m_id;
    QLabel *m_value;
    QLabel *m_badge;
};

} // namespace views
