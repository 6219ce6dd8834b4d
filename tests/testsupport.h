// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the core tests: load a built-in or inline scenario with overrides and
// compare numbers with an explicit tolerance (QCOMPARE on doubles is relative and fails at 0).

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/selection.h"
#include "core/model/architecture.h"
#include "core/physics/evaluation.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

namespace testsupport {

/** A built-in scenario id ("lesson-default") or inline JSON text starting with '{'. */
inline core::Scenario loadScenario(const QString &idOrJson, const QStringList &overrides = {})
{
    std::string text;
    if (idOrJson.startsWith(QLatin1Char('{'))) {
        text = idOrJson.toStdString();
    } else {
        auto builtin = core::scenarioPresetText(idOrJson.toStdString());
        if (!builtin)
            qFatal("no built-in scenario %s", qPrintable(idOrJson));
        text = std::string(*builtin);
    }
    std::vector<std::string> sets;
    for (const QString &o : overrides)
        sets.push_back(o.toStdString());
    auto loaded = core::readScenario(text, sets);
    if (!loaded)
        qFatal("scenario %s did not load: %s: %s", qPrintable(idOrJson),
               loaded.error().path.c_str(), loaded.error().message.c_str());
    return loaded.value().scenario;
}

/** An override that pins the speed of light: for a test that works the toy arithmetic by hand
 *  on a real device, whose scenarios otherwise use the typical estimate (issue #40). */
inline const QString kSpeedOfLight = QStringLiteral("calibration={\"mode\": \"speed_of_light\"}");

/** KV bytes per token of a whole model, uncapped, by the rule the app computes with
 *  (core/model/architecture.h: every layer group's 2 x layers x KV heads x head dim x bytes, or its
 *  latent). */
inline double kvBytesPerToken(const core::ModelSpec &model, double bytesPerElement)
{
    return core::sequenceCache(model, bytesPerElement, 1.0, 1.0).perTokenUncapped;
}

/** The lesson's kv_bytes_per_token(layers, kv_heads, head_dim, bytes) (l.271) on that rule. */
inline double kvBytesPerToken(double layers, double kvHeads, double headDim, double bytesPerElement)
{
    core::ModelSpec model;
    model.layers = layers;
    model.kvHeads = kvHeads;
    model.headDim = headDim;
    return kvBytesPerToken(model, bytesPerElement);
}

inline core::Evaluation evaluateScenario(const QString &idOrJson, const QStringList &overrides = {})
{
    return core::evaluate(loadScenario(idOrJson, overrides));
}

/** One candidate (device id, weight format) of a selection, or nullptr. */
inline const core::Candidate *findCandidate(const core::Selection &selection,
                                            const std::string &device, core::NumericFormat format)
{
    for (const core::Candidate &c : selection.candidates) {
        if (c.deviceId == device && c.weightFormat == format)
            return &c;
    }
    return nullptr;
}

inline QString describe(double actual, double expected, double tolerance)
{
    return QStringLiteral("actual %1, expected %2 +- %3")
        .arg(actual, 0, 'g', 12)
        .arg(expected, 0, 'g', 12)
        .arg(tolerance, 0, 'g', 6);
}

/** Why `text` presents a figure no plan can hold, or empty: a NaN or an infinity as a word, or
 *  a number of 10^15 or more written out (16 digits or more, grouped or not, or an exponent of
 *  15 or more) where the text does not say it is beyond any real figure (issue #41). */
inline QString unrealFigureIn(const QString &text)
{
    static const QRegularExpression notANumber(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                               QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression huge(
        QStringLiteral("(?<![\\w.])(\\d{1,3}(,\\d{3}){5,}|\\d{16,}|\\d(\\.\\d+)?[eE]\\+?(1[5-9]|"
                       "[2-9]\\d|\\d{3}))(?![\\w])"));
    if (const auto m = notANumber.match(text); m.hasMatch())
        return QStringLiteral("'%1' in: %2").arg(m.captured(), text.left(300));
    if (const auto m = huge.match(text); m.hasMatch() && !text.contains(QStringLiteral("beyond")))
        return QStringLiteral("%1 without 'beyond' in: %2").arg(m.captured(), text.left(300));
    return {};
}

} // namespace testsupport

#define ACCEL_COMPARE_NEAR(actual, expected, tolerance)                                            \
    do {                                                                                           \
        const double a_ = (actual);                                                                \
        const double e_ = (expected);                                                              \
        const double t_ = (tolerance);                                                             \
        QVERIFY2(std::isfinite(a_) && std::fabs(a_ - e_) <= t_,                                    \
                 qPrintable(testsupport::describe(a_, e_, t_)));                                   \
    } while (false)
