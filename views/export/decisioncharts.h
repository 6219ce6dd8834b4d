// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The decision's own figures for reports and slides, painted from the core's numbers with a
// QPainter (vector on PDF and SVG), never grabbed from a widget: the tornado of monthly cost or
// of the binding check's margin (each input's bar from its low end to its high end around the
// base), and the growth plan (demand against today's fleet month by month, the month it runs
// out, each added replica and the monthly cost).

class QPainter;
class QRectF;

namespace core {
struct Sensitivity;
struct GrowthPlan;
} // namespace core

namespace views {

enum class TornadoMeasure { MonthlyCost, BindingMargin };

/** Draws the tornado into `area`; `pixel` is the size of one screen pixel on the device (fonts
 *  and lines scale with it). Nothing drawn when the sensitivity is not available. */
void paintTornado(QPainter &painter, const QRectF &area, const core::Sensitivity &sensitivity,
                  TornadoMeasure measure, double pixel = 1.0);

/** Draws the growth plan into `area`. */
void paintGrowth(QPainter &painter, const QRectF &area, const core::GrowthPlan &plan,
                 double pixel = 1.0);

} // namespace views
