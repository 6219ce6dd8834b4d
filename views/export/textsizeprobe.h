// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A paint device that draws nothing and measures the text painted on it: the smallest type a
// page would print with, in points, so that a handout can choose the scale its figures print at
// and a test can check what reaches the paper (issue #23: 5-pt text on the handout).

#include <QPaintDevice>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

namespace views {

class TextSizeProbeEngine;

class TextSizeProbe : public QPaintDevice
{
public:
    /** A page `size` pixels large at `dotsPerInch`, as the printer's page would be. */
    TextSizeProbe(QSize size, int dotsPerInch);
    ~TextSizeProbe() override;
    TextSizeProbe(const TextSizeProbe &) = delete;
    TextSizeProbe &operator=(const TextSizeProbe &) = delete;

    QPaintEngine *paintEngine() const override;

    /** The smallest text painted so far, in points on the page; +infinity before any text. */
    double smallestPoints() const;
    /** The text painted at that size (for the message of a failing check). */
    QString smallestText() const;
    /** How many runs of text were painted. */
    int textCount() const;
    /** Text drawn over other text, "first / second" (at most 20): a label over a label. */
    QStringList overlaps() const;
    /** Text cut short with an ellipsis (at most 20). */
    QStringList elided() const;
    /** Forgets what was measured. */
    void reset();

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QSize m_size;
    int m_dpi;
    std::unique_ptr<TextSizeProbeEngine> m_engine;
};

} // namespace views
