// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson tour: the lesson section by section, each step a lesson scenario, the view that
// shows it, the number under discussion (checked against the lesson's printed value) and a short
// explanation in the app's own words. A step may hide its number until revealed, so a class can
// predict first, and may ask a question whose answer the core computes.

#include "core/physics/evaluation.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace core {
struct Scenario;
}

namespace views {

struct TourStep
{
    QString title;
    QString scenario;      ///< a built-in scenario id
    QStringList overrides; ///< "PATH=VALUE", applied to it
    QString view;          ///< the view brought forward (a --snapshot name)
    core::FigureId figure; ///< the number under discussion
    double lessonValue;    ///< as the lesson prints it, in SI units
    double tolerance;      ///< how close the app's figure must be
    int line;              ///< in ai-accelerators.txt
    QString text;          ///< the explanation, in the app's own words
    QString onScreen;      ///< what to do in the window ("Press Start the Race"): not on paper
    bool predict = false;  ///< hide the number until revealed
    QString question;      ///< a "try it" question, or empty
    QStringList questionOverrides; ///< the scenario the answer is computed on
    core::FigureId answerFigure = core::FigureId::MaxConcurrentSequences;
    /** Figures that would give the hidden number away (a tokens/s from its step time), hidden
     *  with it until Reveal. */
    QList<core::FigureId> giveaways;
    /** What the number is to this step, where the figure's own name says nothing about its view
     *  ("Plain decode, before any technique" for the engines' step); empty: the figure's name. */
    QString figureLabel;
};

/** The name the step's number goes by: its figureLabel, or the figure's own label. */
QString tourFigureLabel(const TourStep &step);

/** What a step hides until Reveal: its figure and the giveaways; nothing when it does not ask
 *  the class to predict. */
QList<core::FigureId> concealedFigures(const TourStep &step);

/** What step `index` hides: before Reveal its own number and giveaways, and at any time the
 *  number of every later step that asks the class to predict, with its giveaways, where this
 *  step's scenario would show that same number (the lesson device's ridge, 200 FLOP/B, was on
 *  the chart and in the side panel from step 1 and asked for at step 8, issue #42). */
QList<core::FigureId> concealedFigures(int index, bool revealed);

/** Every step, in the lesson's order. */
const QList<TourStep> &tourSteps();

/** The step's scenario: the built-in scenario with the step's overrides. */
bool tourScenario(const TourStep &step, core::Scenario &scenario, QString *error = nullptr);

/** The answer to the step's question, computed by the core. */
/** The batch from which step `index` hides the curves against the batch: the least batch
 *  whose throughput that step (before Reveal) or a later step asks for on a curve this step
 *  draws (step 9's tokens/s at batch 32 under steps 2 to 8); infinity when none. */
double curvesHiddenFromBatch(int index, bool revealed);

double tourAnswer(const TourStep &step);

} // namespace views
