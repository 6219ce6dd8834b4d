// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbereditor.h"

#include "views/document/scenariodocument.h"

#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QLabel>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

NumberEditor::NumberEditor(ScenarioDocument *document, const QString &path, QLabel *refusal,
                           QWidget *parent, double displayScale)
    : QDoubleSpinBox(parent)
    , m_document(document)
    , m_path(path)
    , m_refusal(refusal)
    , m_scale(displayScale)
{
    setObjectName(path);
    const core::ParameterInfo *info = core::findParameter(path.toStdString());
    Q_ASSERT(info);
    // enough decimals for the parameter's scale: 10 us needs eight, 14 GB none
    const double typical = std::isfinite(info->defaultValue) && info->defaultValue > 0
                               ? info->defaultValue
                               : std::max(info->minimum, 1.0);
    const int decimals = std::clamp(3 - int(std::floor(std::log10(typical))), 0, 9);
    // bytes are whole ("262,144 B", not "262,144.000 B")
    const bool whole =
        info->integer || displayScale == 100.0 || fromView(info->unit) == QLatin1String("B");
    setDecimals(whole ? 0 : decimals);
    const double low = info->minimumExclusive ? info->minimum + 0.001 : info->minimum;
    setRange(low * displayScale, std::min(info->maximum, 1e12) * displayScale);
    setGroupSeparatorShown(true);
    setKeyboardTracking(false);
    const QString unit = displayScale == 100.0 ? QStringLiteral("%") : fromView(info->unit);
    if (!unit.isEmpty())
        setSuffix(QLatin1Char(' ') + unit);
    setToolTip(fromView(info->help));
    setAccessibleName(fromView(info->name));
    connect(this, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_syncing)
            return;
        QString error;
        const bool ok = m_document->setNumber(m_path, value() / m_scale, &error);
        if (m_refusal) {
            m_refusal->setText(ok ? QString() : error);
            m_refusal->setVisible(!ok);
        }
        if (!ok)
            sync(m_document->scenario());
    });
}

QString NumberEditor::label() const
{
    const core::ParameterInfo *info = core::findParameter(m_path.toStdString());
    return info ? fromView(info->name) : m_path;
}

void NumberEditor::sync(const core::Scenario &scenario)
{
    m_syncing = true;
    const auto value = core::numberAt(scenario, m_path.toStdString());
    const bool known = value && std::isfinite(*value);
    setSpecialValueText(known ? QString() : tr("not set"));
    setValue(known ? *value * m_scale : minimum());
    m_syncing = false;
}

} // namespace views
