// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson tour's panel: step picker, Previous / Next, the step's explanation, its number
// (hidden until Reveal when the step asks the class to predict), Back to the Lesson's Values, and
// a "try it" question checked against the core's answer.

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace views {

class ScenarioDocument;

class TourPanel : public QWidget
{
    Q_OBJECT

public:
    explicit TourPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    int step() const { return m_step; }
    /** Loads the step's scenario (one undo step) and brings its view forward. */
    void goTo(int step);
    void next();
    void previous();
    /** Shows the hidden number everywhere (views, panels, status bar) and as a callout. */
    void reveal();
    /** Leaving the tour: nothing stays hidden. */
    void stop();
    bool revealed() const { return m_revealed; }
    /** Back to the lesson's values for this step after the user changed inputs. */
    void restoreLessonValues();
    /** Checks an answer to the step's question; true when right. */
    bool answer(const QString &text);
    QString text() const;
    /** The height that shows the step's whole text and its question at `width` without a
     *  scroll bar (presenter mode sizes the tour's dock by it). */
    int heightFor(int width) const;
    /** After an appearance change (presenter mode, its screen): on a projector the step's
     *  text and question at the chart's smallest text size, on the desk the window's font. */
    void followAppearance();

signals:
    /** The view (a --snapshot name) to bring forward, and the figure to explain. */
    void showView(const QString &name, int figure);
    /** Reveal: the hidden figure's name and value, for a large callout. */
    void answerRevealed(const QString &label, const QString &value);

protected:
    /** Presenter mode on or off (its font changes): the text follows (no heading there). */
    void changeEvent(QEvent *event) override;

private:
    void refresh();

    ScenarioDocument *m_document;
    QComboBox *m_steps;
    QPushButton *m_previous;
    QPushButton *m_next;
    QPushButton *m_reveal;
    QTextBrowser *m_text;
    QLineEdit *m_answer;
    QLabel *m_verdict;
    QLabel *m_questionText = nullptr;
    QWidget *m_question;
    int m_step = 0;
    bool m_revealed = false;
};

} // namespace views
