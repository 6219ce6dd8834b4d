// SPDX-License-Identifier: GPL-3.0-or-later
#include "steadylabel.h"

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace views {

SteadyLabel::SteadyLabel(QWidget *parent)
    : QWidget(parent)
{
    m_document.setDocumentMargin(0);
    m_document.setDefaultFont(font());
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void SteadyLabel::setText(const QString &html)
{
    if (html == m_html)
        return;
    m_html = html;
    m_document.setHtml(html);
    const int height = heightAt(width());
    if (height != m_laidOutHeight) {
        m_laidOutHeight = height;
        updateGeometry();
    }
    update();
}

int SteadyLabel::heightAt(int width) const
{
    m_document.setTextWidth(std::max(1, width));
    return int(std::ceil(m_document.size().height()));
}

int SteadyLabel::heightForWidth(int width) const
{
    return heightAt(width);
}

QSize SteadyLabel::sizeHint() const
{
    // as wide as the text on one line, up to about 80 characters; wrapped beyond that
    const int widest = fontMetrics().averageCharWidth() * 80;
    m_document.setTextWidth(-1);
    const int width = std::min(widest, int(std::ceil(m_document.idealWidth())));
    return {width, heightAt(width)};
}

QSize SteadyLabel::minimumSizeHint() const
{
    const int narrowest = fontMetrics().averageCharWidth() * 10;
    return {narrowest, heightAt(std::max(narrowest, width()))};
}

void SteadyLabel::paintEvent(QPaintEvent *event)
{
    (void)event;
    QPainter painter(this);
    m_document.setTextWidth(width());
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    context.palette.setColor(QPalette::Text, palette().color(QPalette::WindowText));
    m_document.documentLayout()->draw(&painter, context);
}

void SteadyLabel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_laidOutHeight = heightAt(width());
}

void SteadyLabel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) { // presenter mode: a larger font, a new height
        m_document.setDefaultFont(font());
        m_laidOutHeight = heightAt(width());
        updateGeometry();
        update();
    }
}

} // namespace views
