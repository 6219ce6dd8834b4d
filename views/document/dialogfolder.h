// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where a file dialog opens (issue #42 item 10: every dialog opened in the process's working
// folder, wherever the scenario was).

#include <QString>

namespace views {

class ScenarioDocument;

/** `fileName` in the scenario's own folder, else in the folder the user last chose in a dialog,
 *  else in the user's documents folder: never the process's working folder. */
QString suggestedPath(const ScenarioDocument *document, const QString &fileName = {});

/** Remembers the folder of a path the user chose in a dialog (nothing for an empty path). */
void rememberDialogFolder(const QString &chosenPath);

} // namespace views
