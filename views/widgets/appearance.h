// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the application looks: the theme (the platform's, light or dark), high contrast, and the
// presenter scale. Qt 6.4 has no colour-scheme API, so "System" keeps the platform's palette and
// infers dark from it. One process-wide setting: a display preference, not document state.

#include <QString>

#include <optional>

class QPalette;

namespace views {

enum class Theme { System, Light, Dark };

struct Appearance
{
    Theme theme = Theme::System;
    bool highContrast = false;
    bool presenter = false; ///< fonts, lines and markers about 1.6x
    /** The height of the screen presented on, in pixels: the presenter scale and the chart text
     *  follow it (0: a 1920x1080 projector). */
    int presenterScreenHeight = 0;
};

/** The presenter scale on a 1920x1080 projector: fonts, pen widths and markers. */
inline constexpr double kPresenterScale = 1.6;
/** The smallest chart text in presenter mode on a 1080-pixel-high screen, in pixels (issue #23:
 *  ticks and notes of about 10 px were readable from the front rows only). */
inline constexpr int kPresenterChartPixels = 24;

/** The presenter scale on a screen `height` pixels high: 1.6 at 1080, less on a smaller
 *  projector so the window still fits it (1.2 at 800). */
double presenterScaleFor(int height);
/** The smallest chart text on that screen: 24 px at 1080, in proportion elsewhere. */
int presenterChartPixelsFor(int height);

/** Sets the palette, the application font and the drawing scale. The first call remembers the
 *  platform's palette and font: "System" and the 1x size come back from it, never compound. */
void applyAppearance(const Appearance &appearance);
/** What applyAppearance() last set (the default before any call). */
Appearance currentAppearance();
/** Dark when the window background is darker than its text. */
bool paletteIsDark(const QPalette &palette);
/** True when the palette in use is a dark one, whichever way it was chosen. */
bool isDark();

QPalette lightPalette(bool highContrast);
QPalette darkPalette(bool highContrast);

QString themeName(Theme theme); ///< "system", "light", "dark"
std::optional<Theme> themeFromName(const QString &name);

/** For pages that are printed (reports, handouts): light, normal contrast, 1x while it lives,
 *  then the previous appearance again. */
class PrintAppearance
{
public:
    PrintAppearance();
    ~PrintAppearance();
    PrintAppearance(const PrintAppearance &) = delete;
    PrintAppearance &operator=(const PrintAppearance &) = delete;

private:
    Appearance m_previous;
    bool m_changed;
};

} // namespace views
