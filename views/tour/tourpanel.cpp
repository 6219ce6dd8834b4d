// SPDX-License-Identifier: GPL-3.0-or-later
#include "tourpanel.h"

#include "views/document/scenariodocument.h"
#include "views/tour/tour.h"
#include "views/widgets/appearance.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/physics/explain.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace views {

TourPanel::TourPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_steps(new QComboBox(this))
    , m_previous(new QPushButton(tr("Previous"), this))
    , m_next(new QPushButton(tr("Next"), this))
    , m_reveal(new QPushButton(tr("Reveal"), this))
    , m_text(new QTextBrowser(this))
    , m_answer(new QLineEdit(this))
    , m_verdict(new QLabel(this))
    , m_question(new QWidget(this))
{
    setObjectName(QStringLiteral("tourPanel"));
    const QList<TourStep> &steps = tourSteps();
    for (int i = 0; i < steps.size(); ++i)
        m_steps->addItem(tr("%1. %2").arg(i + 1).arg(steps[i].title));
    auto *back = new QPushButton(tr("Back to the Lesson's Values"), this);
    back->setToolTip(tr("Undo your changes to this step's inputs"));
    m_reveal->setToolTip(tr("Show the number (R)"));
    m_reveal->setShortcut(QKeySequence(Qt::Key_R));
    connect(m_steps, &QComboBox::activated, this, &TourPanel::goTo);
    connect(m_previous, &QPushButton::clicked, this, &TourPanel::previous);
    connect(m_next, &QPushButton::clicked, this, &TourPanel::next);
    connect(m_reveal, &QPushButton::clicked, this, &TourPanel::reveal);
    connect(back, &QPushButton::clicked, this, &TourPanel::restoreLessonValues);
    connect(m_document, &ScenarioDocument::changed, this, &TourPanel::refresh);
    m_text->setOpenLinks(false);
    m_text->setMinimumHeight(44); // the dock must leave the views room at 1280x800
    m_answer->setPlaceholderText(tr("Your answer"));
    connect(m_answer, &QLineEdit::returnPressed, this, [this] { answer(m_answer->text()); });
    // the question in full beside the box (a placeholder was cut off: "... need at 1...")
    m_questionText = new QLabel(m_question);
    m_questionText->setObjectName(QStringLiteral("tourQuestion"));
    m_questionText->setWordWrap(true);
    auto *questionRow = new QHBoxLayout(m_question);
    questionRow->setContentsMargins(0, 0, 0, 0);
    // the question on one line where it can (on a projector its second line took the chart's
    // room); the verdict as wide as its words once there are some
    questionRow->addWidget(m_questionText, 1);
    questionRow->addWidget(m_answer);
    questionRow->addWidget(m_verdict);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_steps, 1);
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    buttons->addWidget(m_reveal);
    buttons->addWidget(back);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_question);
    followAppearance();
}

void TourPanel::followAppearance()
{
    // On a projector the step's words are read from the back row: as large as the chart's
    // smallest text (the application font alone gave 17 px beside 24 px chart labels at 1080).
    // On the desk they inherit the window's font (QFont() resets an explicit one).
    const QFont font = currentAppearance().presenter ? style::annotationFont(0.9) : QFont();
    // each widget its own: under the high-contrast style sheet a parent's font does not pass
    // down to its children
    for (QWidget *words :
         std::initializer_list<QWidget *>{m_text, m_questionText, m_answer, m_verdict})
        words->setFont(font);
    m_answer->setMaximumWidth(m_answer->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
    refresh();
}

void TourPanel::goTo(int step)
{
    const QList<TourStep> &steps = tourSteps();
    m_step = std::clamp(step, 0, int(steps.size()) - 1);
    m_revealed = !steps[m_step].predict;
    // hidden before the step's scenario arrives: not one frame shows the answer (issue #23)
    m_document->setConcealed(concealedFigures(m_step, m_revealed));
    m_document->setCurvesHiddenFromBatch(curvesHiddenFromBatch(m_step, m_revealed));
    m_answer->clear();
    m_verdict->clear();
    m_steps->setCurrentIndex(m_step);
    restoreLessonValues();
    emit showView(steps[m_step].view, int(steps[m_step].figure));
}

void TourPanel::next()
{
    goTo(std::min(m_step + 1, int(tourSteps().size()) - 1));
}

void TourPanel::previous()
{
    goTo(std::max(m_step - 1, 0));
}

void TourPanel::reveal()
{
    if (m_revealed)
        return;
    m_revealed = true;
    m_document->setConcealed(concealedFigures(m_step, true)); // a later step's number stays
    m_document->setCurvesHiddenFromBatch(curvesHiddenFromBatch(m_step, true));
    m_document->flush();
    refresh();
    const TourStep &step = tourSteps()[m_step];
    const core::FigureInfo &info = core::figureInfo(step.figure);
    emit answerRevealed(QString::fromUtf8(info.label.data(), qsizetype(info.label.size())),
                        QString::fromStdString(core::formatFigure(
                            m_document->evaluation(), step.figure, m_document->units())));
}

void TourPanel::stop()
{
    m_document->setConcealed({});
    m_document->setCurvesHiddenFromBatch(std::numeric_limits<double>::infinity());
}

void TourPanel::restoreLessonValues()
{
    const TourStep &step = tourSteps()[m_step];
    core::Scenario scenario;
    if (!tourScenario(step, scenario))
        return;
    // A lesson step in an untitled, untouched window is not unsaved work: no "untitled*" on the
    // projector and no "save changes?" when the class ends (issue #23).
    const bool untouched = m_document->filePath().isEmpty() && !m_document->isModified();
    m_document->applyScenario(scenario, tr("Tour: %1").arg(step.title));
    m_document->flush();
    if (untouched)
        m_document->undoStack()->setClean();
    refresh();
}

bool TourPanel::answer(const QString &text)
{
    const TourStep &step = tourSteps()[m_step];
    bool ok = false;
    const double given =
        QLocale::c().toDouble(QString(text).remove(QLatin1Char(',')).trimmed(), &ok);
    const double expected = tourAnswer(step);
    if (!ok || step.question.isEmpty() || !std::isfinite(expected)) {
        m_verdict->setText(tr("Type a number."));
        return false;
    }
    // the core's answer, in the unit the question asks for (GB for bytes)
    const bool bytes = core::figureInfo(step.answerFigure).quantity == core::Quantity::Bytes;
    const double inUnit = bytes ? expected / 1e9 : expected;
    const bool right = std::fabs(given - inUnit) <= std::max(0.01 * std::fabs(inUnit), 0.5);
    m_verdict->setText(right ? tr("Right: %1.").arg(style::number(inUnit, 4))
                             : tr("Not quite: the app computes %1.").arg(style::number(inUnit, 4)));
    m_verdict->setStyleSheet(right
                                 ? QStringLiteral("color: %1").arg(style::kGreen.darker(120).name())
                                 : QStringLiteral("color: %1").arg(style::warning().name()));
    return right;
}

int TourPanel::heightFor(int width) const
{
    const QMargins margins = contentsMargins() + layout()->contentsMargins();
    const int spacing = layout()->spacing();
    const int frame = 2 * m_text->frameWidth();
    // the text laid out at the browser's width there (its document margin is inside)
    QTextDocument *document = m_text->document()->clone();
    document->setTextWidth(width - margins.left() - margins.right() - frame -
                           m_text->verticalScrollBar()->sizeHint().width());
    const int textHeight = int(std::ceil(document->size().height()));
    delete document;
    constexpr int kSlack = 6; // rounding in the layouts between here and the text's viewport
    int height = margins.top() + margins.bottom() + m_steps->sizeHint().height() + spacing +
                 textHeight + frame + kSlack;
    if (m_question->isVisibleTo(this))
        height += spacing + m_question->heightForWidth(width - margins.left() - margins.right());
    return height;
}

void TourPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        refresh();
}

QString TourPanel::text() const
{
    return m_text->toPlainText();
}

void TourPanel::refresh()
{
    const QList<TourStep> &steps = tourSteps();
    const TourStep &step = steps[m_step];
    m_previous->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < steps.size());
    m_reveal->setEnabled(!m_revealed);
    const core::Evaluation &e = m_document->evaluation();
    const QString label = tourFigureLabel(step);
    const QString value =
        m_revealed ? QString::fromStdString(core::formatFigure(e, step.figure, m_document->units()))
                   : tr("? (predict it, then Reveal)");
    // on the projector the step's title is the picker's line above: the text keeps the room
    const QString heading =
        currentAppearance().presenter
            ? QString()
            : tr("<h3>Step %1 of %2: %3</h3>").arg(m_step + 1).arg(steps.size()).arg(step.title);
    const QString words = step.onScreen.isEmpty() ? step.text : step.text + u' ' + step.onScreen;
    QString html = heading + tr("<p>%1</p><p><b>%2: %3</b>").arg(words, label, value);
    // the lesson's line is the teacher's note, not the class's (issue #23)
    if (!currentAppearance().presenter)
        html += tr(" <span style=\"color:#666\">(the lesson, l.%1)</span>").arg(step.line);
    html += QStringLiteral("</p>");
    m_text->setHtml(style::themed(html));
    m_question->setVisible(!step.question.isEmpty());
    m_questionText->setText(tr("Try it: %1").arg(step.question));
    m_answer->setToolTip(step.question);
}

} // namespace views
