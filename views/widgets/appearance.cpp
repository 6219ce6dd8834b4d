// SPDX-License-Identifier: GPL-3.0-or-later
#include "appearance.h"

#include <algorithm>
#include <cmath>

#include "views/widgets/style.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace views {

namespace {

struct Captured
{
    bool done = false;
    QPalette palette;
    QFont font;
    QString styleName;
};

Captured &captured()
{
    static Captured c;
    if (!c.done) {
        c.palette = QApplication::palette();
        c.font = QApplication::font();
        c.styleName = QApplication::style() ? QApplication::style()->name() : QString();
        c.done = true;
    }
    return c;
}

Appearance g_current;

void setDisabled(QPalette &palette, const QColor &colour)
{
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, colour);
}

} // namespace

bool paletteIsDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() <
           palette.color(QPalette::WindowText).lightnessF();
}

bool isDark()
{
    return paletteIsDark(QApplication::palette());
}

QPalette lightPalette(bool highContrast)
{
    const QColor window = highContrast ? QColor(255, 255, 255) : QColor(239, 239, 239);
    QPalette p(highContrast ? QColor(255, 255, 255) : QColor(239, 239, 239), window);
    const QColor text = Qt::black;
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase,
               highContrast ? QColor(235, 235, 235) : QColor(247, 247, 247));
    p.setColor(QPalette::ToolTipBase, QColor(255, 255, 220));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, highContrast ? QColor(0, 0, 160) : QColor(0, 100, 170));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, highContrast ? QColor(0, 0, 160) : QColor(0, 90, 180));
    p.setColor(QPalette::PlaceholderText,
               highContrast ? QColor(70, 70, 70) : QColor(120, 120, 120));
    if (highContrast) {
        p.setColor(QPalette::Mid, QColor(60, 60, 60));
        p.setColor(QPalette::Dark, QColor(0, 0, 0));
    }
    setDisabled(p, highContrast ? QColor(90, 90, 90) : QColor(150, 150, 150));
    return p;
}

QPalette darkPalette(bool highContrast)
{
    const QColor window = highContrast ? QColor(0, 0, 0) : QColor(45, 45, 48);
    QPalette p(highContrast ? QColor(0, 0, 0) : QColor(58, 58, 62), window);
    const QColor text = highContrast ? QColor(255, 255, 255) : QColor(232, 232, 232);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Base, highContrast ? QColor(0, 0, 0) : QColor(30, 30, 32));
    p.setColor(QPalette::AlternateBase, highContrast ? QColor(30, 30, 30) : QColor(40, 40, 44));
    p.setColor(QPalette::ToolTipBase, QColor(50, 50, 54));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, highContrast ? QColor(255, 216, 0) : QColor(30, 100, 180));
    p.setColor(QPalette::HighlightedText, highContrast ? QColor(0, 0, 0) : QColor(255, 255, 255));
    p.setColor(QPalette::Link, highContrast ? QColor(0, 255, 255) : QColor(110, 180, 255));
    p.setColor(QPalette::LinkVisited, highContrast ? QColor(255, 128, 255) : QColor(190, 150, 255));
    p.setColor(QPalette::PlaceholderText,
               highContrast ? QColor(190, 190, 190) : QColor(140, 140, 140));
    if (highContrast) {
        p.setColor(QPalette::Mid, QColor(200, 200, 200));
        p.setColor(QPalette::Light, QColor(255, 255, 255));
    }
    setDisabled(p, highContrast ? QColor(170, 170, 170) : QColor(120, 120, 120));
    return p;
}

namespace {

/** Outlines for the controls a high-contrast palette would otherwise hide (issue #23). */
QString controlOutlines(const QPalette &p)
{
    const QString text = p.color(QPalette::WindowText).name();
    const QString base = p.color(QPalette::Base).name();
    const QString accent = p.color(QPalette::Highlight).name();
    const QString groove = p.color(QPalette::PlaceholderText).name();
    return QStringLiteral(
               "QAbstractSpinBox, QComboBox, QLineEdit { border: 1px solid %1; "
               "border-radius: 2px; background: %2; padding: 1px 3px; }"
               "QSlider::groove:horizontal { height: 4px; background: %4; border: 1px solid %1; }"
               "QSlider::sub-page:horizontal { background: %3; border: 1px solid %1; }"
               "QSlider::handle:horizontal { width: 12px; margin: -6px 0; background: %3; "
               "border: 1px solid %1; border-radius: 2px; }"
               "QCheckBox::indicator, QRadioButton::indicator { width: 13px; height: 13px; "
               "border: 1px solid %1; background: %2; }"
               "QCheckBox::indicator:checked, QRadioButton::indicator:checked { background: %3; }")
        .arg(text, base, accent, groove);
}

} // namespace

void applyAppearance(const Appearance &appearance)
{
    const Captured &base = captured();
    QPalette palette = base.palette;
    const bool systemDark = paletteIsDark(base.palette);
    switch (appearance.theme) {
    case Theme::System:
        if (appearance.highContrast)
            palette = systemDark ? darkPalette(true) : lightPalette(true);
        break;
    case Theme::Light:
        palette = lightPalette(appearance.highContrast);
        break;
    case Theme::Dark:
        palette = darkPalette(appearance.highContrast);
        break;
    }
    // A chosen palette needs a style that honours it: Fusion does; some platform styles do not.
    const bool ownPalette = appearance.theme != Theme::System || appearance.highContrast;
    const QString wantedStyle = ownPalette ? QStringLiteral("Fusion") : base.styleName;
    if (!wantedStyle.isEmpty() && QApplication::style() &&
        QApplication::style()->name().compare(wantedStyle, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(wantedStyle));
    style::setHighContrast(appearance.highContrast);
    // unchanged palette or font: no change event through every widget (start-up time)
    if (palette != QApplication::palette())
        QApplication::setPalette(palette);
    const double scale =
        appearance.presenter ? presenterScaleFor(appearance.presenterScreenHeight) : 1.0;
    style::setScale(scale);
    style::setMinimumChartPixels(
        appearance.presenter ? presenterChartPixelsFor(appearance.presenterScreenHeight) : 0);
    // current before the font's change events: widgets that size text by the mode read it
    g_current = appearance;
    const QFont font = style::scaledFont(base.font, scale);
    if (font != QApplication::font())
        QApplication::setFont(font);
    // Qt delivers the change to existing widgets later; views built next must inherit it now
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationFontChange);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationPaletteChange);
    // Fusion draws input frames, slider grooves and check boxes in shades of the window colour:
    // on a black (or white) high-contrast window they vanish. Draw them in the text colour
    // (after the font: a sheet set first re-polished every widget at the old size).
    const QString sheet = appearance.highContrast ? controlOutlines(palette) : QString();
    if (qApp->styleSheet() != sheet)
        qApp->setStyleSheet(sheet);
    g_current = appearance;
}

double presenterScaleFor(int height)
{
    const int h = height > 0 ? height : 1080;
    return std::clamp(kPresenterScale * h / 1080.0, 1.1, 2.4);
}

int presenterChartPixelsFor(int height)
{
    const int h = height > 0 ? height : 1080;
    return std::max(14, int(std::lround(kPresenterChartPixels * h / 1080.0)));
}

Appearance currentAppearance()
{
    return g_current;
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<Theme> themeFromName(const QString &name)
{
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark}) {
        if (themeName(theme).compare(name, Qt::CaseInsensitive) == 0)
            return theme;
    }
    return std::nullopt;
}

PrintAppearance::PrintAppearance()
    : m_previous(currentAppearance())
{
    const bool alreadyPrintable =
        m_previous.theme == Theme::Light && !m_previous.highContrast && !m_previous.presenter;
    const bool systemPrintable = m_previous.theme == Theme::System && !m_previous.highContrast &&
                                 !m_previous.presenter && !isDark();
    m_changed = !(alreadyPrintable || systemPrintable);
    if (m_changed)
        applyAppearance({Theme::Light, false, false});
}

PrintAppearance::~PrintAppearance()
{
    if (m_changed)
        applyAppearance(m_previous);
}

} // namespace views
