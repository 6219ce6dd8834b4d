// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Help (F1): the user guide shipped inside the application (docs/user-guide.md as a resource),
// opened at the part for the view in front.

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

class QListWidget;
class QTextBrowser;

namespace views {

struct GuideSection
{
    QString title;
    QStringList topics; ///< view snapshot names and other topics ("start", "tour", ...)
    QString markdown;
};

/** The user guide, one section per "## " heading; topics from its "<!-- help: ... -->" line. */
const QList<GuideSection> &userGuide();
/** The section for a topic (a view's snapshot name); the first section when none names it. */
int guideSectionFor(const QString &topic);

class HelpDialog : public QDialog
{
    Q_OBJECT

public:
    explicit HelpDialog(QWidget *parent = nullptr);
    /** Shows the section for `topic` (e.g. "roofline"). */
    void showTopic(const QString &topic);
    QString currentTitle() const;
    QTextBrowser *browser() const { return m_browser; }

private:
    void showSection(int index);

    QListWidget *m_sections;
    QTextBrowser *m_browser;
};

} // namespace views
