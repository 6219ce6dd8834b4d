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
const ViewEntry *findView(const QString &name);
QStringList viewNames();

} // namespace views
