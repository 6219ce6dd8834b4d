// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewlist.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QListWidget>
#include <QSignalBlocker>
#include <QStackedWidget>

#include <algorithm>

namespace views {

ViewList::ViewList(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_picker(new QComboBox(this))
    , m_stack(new QStackedWidget(this))
{
    m_list->setObjectName(QStringLiteral("viewList"));
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setUniformItemSizes(true);
    m_list->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    m_picker->setObjectName(QStringLiteral("viewPicker"));
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_picker->hide();
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_picker, 0, 1, Qt::AlignLeft);
    layout->addWidget(m_list, 0, 0, 2, 1);
    layout->addWidget(m_stack, 1, 1);
    layout->setColumnStretch(1, 1);
    layout->setRowStretch(1, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, &ViewList::showIndex);
    connect(m_picker, &QComboBox::currentIndexChanged, this, &ViewList::showIndex);
    m_list->installEventFilter(this);
}

bool ViewList::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::FontChange)
        fitListWidth(); // presenter mode's larger type: every name still whole
    return QWidget::eventFilter(watched, event);
}

void ViewList::addView(QWidget *view, const QString &label, const QString &title)
{
    m_stack->addWidget(view);
    auto *item = new QListWidgetItem(label, m_list);
    item->setToolTip(title);
    m_picker->addItem(label);
    m_picker->setItemData(m_picker->count() - 1, title, Qt::ToolTipRole);
    if (m_list->count() == 1)
        showIndex(0);
    fitListWidth();
}

void ViewList::showIndex(int index)
{
    if (index < 0 || index >= m_stack->count())
        return;
    m_stack->setCurrentIndex(index);
    const QSignalBlocker listQuiet(m_list);
    const QSignalBlocker pickerQuiet(m_picker);
    m_list->setCurrentRow(index);
    m_picker->setCurrentIndex(index);
}

void ViewList::setCurrentView(QWidget *view)
{
    showIndex(m_stack->indexOf(view));
}

QWidget *ViewList::currentView() const
{
    return m_stack->currentWidget();
}

int ViewList::count() const
{
    return m_stack->count();
}

void ViewList::setCompact(bool compact)
{
    m_list->setVisible(!compact);
    m_picker->setVisible(compact);
}

void ViewList::fitListWidth()
{
    // as wide as the longest name at the list's own font, no wider: the views keep the rest
    int widest = 0;
    for (int row = 0; row < m_list->count(); ++row)
        widest =
            std::max(widest, m_list->fontMetrics().horizontalAdvance(m_list->item(row)->text()));
    m_list->setFixedWidth(widest + 2 * m_list->frameWidth() + 2 * m_list->spacing() + 16);
}

} // namespace views
