// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbereditor.h"

#include "views/document/scenariodocument.h"

#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <limits>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

void fitParameterEditor(QDoubleSpinBox *editor, const core::ParameterInfo &info,
                        double displayScale)
{
    editor->setObjectName(fromView(info.path));
    editor->setProperty("displayScale", displayScale);
    const double low = info.minimum * displayScale;
    // the decimals the smallest value needs (0.001 s: three), at most nine
    const int needed = low > 0.0 ? std::clamp(int(std::ceil(-std::log10(low) - 1e-9)), 0, 9) : 0;
    editor->setDecimals(std::max(editor->decimals(), needed));
    editor->setRange(low, info.maximum * displayScale);
}

void fitParameterEditor(QSpinBox *editor, const core::ParameterInfo &info)
{
    editor->setObjectName(fromView(info.path));
    editor->setProperty("displayScale", 1.0);
    // a QSpinBox holds an int: a larger maximum (a seed up to 4e9) needs a QDoubleSpinBox
    Q_ASSERT(info.maximum <= double(std::numeric_limits<int>::max()));
    editor->setRange(int(info.minimum),
                     int(std::min(info.maximum, double(std::numeric_limits<int>::max()))));
}

void showParameterValue(QDoubleSpinBox *editor, double value)
{
    editor->setValue(value);
    editor->setProperty("shownValue", editor->value());
}

bool changedFromShown(const QDoubleSpinBox *editor)
{
    const QVariant shown = editor->property("shownValue");
    return !shown.isValid() || shown.toDouble() != editor->value();
}

NumberEditor::NumberEditor(ScenarioDocument *document, const QString &path, QLabel *refusal,
                           QWidget *parent, double displayScale)
    : QDoubleSpinBox(parent)
    , m_document(document)
    , m_path(path)
    , m_refusal(refusal)
    , m_scale(displayScale)
{
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
    // money in cents ("5,000.00 USD", not "5,000.000 USD")
    const bool money = fromView(info->unit) == QLatin1String("USD");
    setDecimals(whole ? 0 : money ? std::min(decimals, 2) : decimals);
    m_money = money;
    fitParameterEditor(this, *info, displayScale);
    setGroupSeparatorShown(true);
    setKeyboardTracking(false);
    const QString unit = displayScale == 100.0 ? QStringLiteral("%") : fromView(info->unit);
    if (!unit.isEmpty())
        setSuffix(QLatin1Char(' ') + unit);
    // a count noun in the singular at 1 ("1 device", not "1 devices"), as the scenario panel
    static const QRegularExpression countNoun(QStringLiteral("^[a-z]{2,}s$"));
    if (countNoun.match(unit).hasMatch()) {
        const QString singular = unit.chopped(1);
        const auto suffix = [this, unit, singular](double value) {
            setSuffix(QLatin1Char(' ') + (value == 1.0 ? singular : unit));
        };
        connect(this, &QDoubleSpinBox::valueChanged, this, suffix);
        suffix(value());
    }
    setToolTip(fromView(info->help));
    setAccessibleName(fromView(info->name));
    connect(this, &QDoubleSpinBox::editingFinished, this, [this] {
        // leaving the editor untouched is no edit (the shown value may be the held one rounded)
        if (m_syncing || !changedFromShown(this))
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

QString NumberEditor::textFromValue(double value) const
{
    QString text = QDoubleSpinBox::textFromValue(value);
    if (m_money || decimals() == 0)
        return text;
    const QChar point = locale().decimalPoint().front();
    if (!text.contains(point))
        return text;
    while (text.endsWith(u'0'))
        text.chop(1);
    if (text.endsWith(point))
        text.chop(1);
    return text;
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
    showParameterValue(this, known ? *value * m_scale : minimum());
    m_syncing = false;
}

} // namespace views
