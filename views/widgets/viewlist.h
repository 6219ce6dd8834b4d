// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A page of many views: a list of their names beside the one on show. Eight views as tabs hid
// half their names behind scroll arrows at every window size, 1920x1080 included (issue #42,
// item 3); a list shows every name at once, and its keys (Up, Down, Home, End) step through
// them. In presenter mode the view has the screen's width: the names move to one line above it.

#include <QWidget>

class QComboBox;
class QListWidget;
class QStackedWidget;

namespace views {

class ViewList : public QWidget
{
    Q_OBJECT

public:
    explicit ViewList(QWidget *parent = nullptr);

    /** Adds `view` under a short `label` (its full `title` as the tooltip); the first one added
     *  is on show. */
    void addView(QWidget *view, const QString &label, const QString &title);
    /** Brings `view` forward (it must have been added). */
    void setCurrentView(QWidget *view);
    QWidget *currentView() const;
    int count() const;
    QListWidget *list() const { return m_list; }
    QComboBox *picker() const { return m_picker; }
    /** Presenter mode: the names in a one-line picker above the view instead of the list. */
    void setCompact(bool compact);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showIndex(int index);
    void fitListWidth();

    QListWidget *m_list;
    QComboBox *m_picker;
    QStackedWidget *m_stack;
};

} // namespace views
