// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A word-wrapped rich-text label that asks its layout for room only when its height changes.
// QLabel::setText asks every time, and the request climbs to the window: inside a tab,
// QTabWidget answers it by repainting the whole tab. A heading whose numbers follow a slider
// would repaint every widget on its tab on every step.

#include <QTextDocument>
#include <QWidget>

namespace views {

class SteadyLabel : public QWidget
{
    Q_OBJECT

public:
    explicit SteadyLabel(QWidget *parent = nullptr);

    /** Shows `html`; a layout request only when the text's height at this width changes. */
    void setText(const QString &html);
    QString text() const { return m_html; }
    QString plainText() const { return m_document.toPlainText(); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    int heightAt(int width) const;

    QString m_html;
    // heightForWidth() is const and lays the text out at the width asked about
    mutable QTextDocument m_document;
    int m_laidOutHeight = -1; ///< the height the layout was last asked for
};

} // namespace views
