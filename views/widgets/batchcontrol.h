// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A slider with a spin box for an input that spans orders of magnitude (batch 1 to 1024,
// context 128 to 131,072): the slider steps through powers of two with fine steps between,
// the spin box takes any exact value in the parameter's range.

#include <QWidget>

class QSlider;
class QSpinBox;
class QLabel;

namespace views {

class ScenarioDocument;

class LogSliderControl : public QWidget
{
    Q_OBJECT

public:
    /** `path` is the scenario input ("serving.batch"); the slider covers the parameter table's
     *  slider range for it (core/model/parameters.cpp), the spin box the whole valid range. */
    LogSliderControl(ScenarioDocument *document, const QString &path, QWidget *parent = nullptr);

    QSlider *slider() const { return m_slider; }
    QSpinBox *spinBox() const { return m_spin; }
    /** Moves one slider step up (+1) or down (-1), as the +/- and arrow keys do. */
    void step(int direction);

private:
    void refresh();
    void apply(int value);
    int positionFor(int value) const;

    ScenarioDocument *m_document;
    QString m_path;
    QList<int> m_stops; ///< the values the slider positions stand for
    QSlider *m_slider;
    QSpinBox *m_spin;
    bool m_updating = false;
};

} // namespace views
