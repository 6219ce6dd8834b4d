// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every view by its --snapshot name, so the main window's tabs and the command line build the
// same objects.

#include <QList>
#include <QString>

#include <functional>

class QWidget;

namespace views {

class ScenarioDocument;
class View;

struct ViewEntry
{
    QString name; ///< the --snapshot name
    QString tab;  ///< the tab it lives in
    std::function<View *(ScenarioDocument *, QWidget *)> create;
};

const QList<ViewEntry> &viewRegistry();
/** A view's short name where many share a page and list their names ("Memory hierarchy" for
 *  "The memory hierarchy, cold start and spill"); its title where it has none. */
QString listLabel(const QString &name, const QString &title);
const ViewEntry *findView(const QString &name);
QStringList viewNames();

} // namespace views
