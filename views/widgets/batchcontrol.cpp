// SPDX-License-Identifier: GPL-3.0-or-later
#include "batchcontrol.h"

#include "views/widgets/numbereditor.h"

#include "views/document/scenariodocument.h"

#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QHBoxLayout>
#include <QSlider>
#include <QSpinBox>

#include <cmath>

namespace views {

LogSliderControl::LogSliderControl(ScenarioDocument *document, const QString &path, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_path(path)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QSpinBox(this))
{
    const core::ParameterInfo *info = core::findParameter(path.toStdString());
    Q_ASSERT(info && info->hasSlider());
    const double low = info->sliderMinimum;
    const double high = info->sliderMaximum;
    // Ten stops per doubling, rounded to whole values: 1, 2, 3, ... 16, 17, 18, 20, ...
    for (double exponent = std::log2(low); exponent <= std::log2(high) + 1e-9; exponent += 0.1) {
        const int value = int(std::lround(std::exp2(exponent)));
        if (m_stops.isEmpty() || value > m_stops.last())
            m_stops.append(value);
    }
    m_slider->setRange(0, int(m_stops.size()) - 1);
    m_slider->setPageStep(10);
    fitParameterEditor(m_spin, *info);
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setGroupSeparatorShown(true);
    {
        const QString tip =
            tr("%1 (%2): %3\nRange %4 to %5.")
                .arg(QString::fromUtf8(info->name.data(), qsizetype(info->name.size())),
                     QString::fromUtf8(info->unit.data(), qsizetype(info->unit.size())),
                     QString::fromUtf8(info->help.data(), qsizetype(info->help.size())))
                .arg(info->minimum)
                .arg(info->maximum);
        m_slider->setToolTip(tip);
        m_spin->setToolTip(tip);
        m_slider->setAccessibleName(
            QString::fromUtf8(info->name.data(), qsizetype(info->name.size())));
    }
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (!m_updating)
            apply(m_stops.value(position));
    });
    connect(m_spin, &QSpinBox::valueChanged, this, [this](int value) {
        if (!m_updating)
            apply(value);
    });
    connect(document, &ScenarioDocument::changed, this, &LogSliderControl::refresh);
    refresh();
}

int LogSliderControl::positionFor(int value) const
{
    int best = 0;
    for (int i = 0; i < m_stops.size(); ++i) {
        if (std::abs(m_stops[i] - value) < std::abs(m_stops[best] - value))
            best = i;
    }
    return best;
}

void LogSliderControl::step(int direction)
{
    m_slider->setValue(m_slider->value() + direction);
}

void LogSliderControl::apply(int value)
{
    m_document->setNumber(m_path, value);
}

void LogSliderControl::refresh()
{
    const auto value = core::numberAt(m_document->scenario(), m_path.toStdString());
    if (!value)
        return;
    m_updating = true;
    m_spin->setValue(int(*value));
    m_slider->setValue(positionFor(int(*value)));
    m_updating = false;
}

} // namespace views
