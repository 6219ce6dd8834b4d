// SPDX-License-Identifier: GPL-3.0-or-later
// Every editor of a scenario number shows the value the scenario holds, at either end of the
// range the scenario file accepts (issue #41, item 3: a throttle of 1e-307 showed as 0.05, a
// training sequence of 1e8 tokens as 1e7), and leaving an editor untouched changes nothing.

#include "app/mainwindow.h"
#include "views/document/scenariodocument.h"
#include "views/load/loadrunner.h"
#include "views/viewregistry.h"
#include "views/widgets/view.h"
#include "views/wizard/selectionwizard.h"

#include "core/data/scenarioio.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <functional>

class EditorsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyEditorShowsTheHeldValueAtEitherEnd();
};

void EditorsTest::initTestCase()
{
    views::LoadRunner::limitForTests(6, 300);
    QStandardPaths::setTestModeEnabled(true);
}

namespace {

/** What an editor shows, in the scenario's units. */
double shownValue(const QAbstractSpinBox *editor)
{
    const double scale = editor->property("displayScale").toDouble();
    if (const auto *spin = qobject_cast<const QSpinBox *>(editor))
        return spin->value() / scale;
    return qobject_cast<const QDoubleSpinBox *>(editor)->value() / scale;
}

/** Half a step of the editor's last shown decimal, in the scenario's units. */
double displayResolution(const QAbstractSpinBox *editor)
{
    const double scale = editor->property("displayScale").toDouble();
    if (const auto *spin = qobject_cast<const QDoubleSpinBox *>(editor))
        return 0.5 * std::pow(10.0, -spin->decimals()) / scale;
    return 0.5 / scale;
}

} // namespace

namespace {

/** Sets each editor's parameter to either end of its range in `document` and checks the editor
 *  shows it, and that leaving it untouched edits nothing. `front` brings an editor's view
 *  forward (a view refreshes while shown). Returns the ends checked; the paths in `paths`. */
int checkEditors(QWidget *root, views::ScenarioDocument *document,
                 const std::function<void(QWidget *)> &front, QStringList *paths)
{
    int checked = 0;
    for (QAbstractSpinBox *editor : root->findChildren<QAbstractSpinBox *>()) {
        const core::ParameterInfo *info = core::findParameter(editor->objectName().toStdString());
        if (!info || !editor->property("displayScale").isValid())
            continue;
        *paths << editor->objectName();
        front(editor);
        for (const double held : {info->minimum, info->maximum}) {
            document->reset(core::lessonDefaultScenario());
            if (!document->setNumber(editor->objectName(), held))
                continue; // another input refuses it here (a prompt longer than the context)
            document->flush();
            if (!editor->isEnabled())
                continue; // shows a figure the scenario derives instead (utilisation by traffic)
            const double shown = shownValue(editor);
            if (std::abs(shown - held) > displayResolution(editor) + 1e-12 * held) {
                QTest::qFail(qPrintable(QStringLiteral("%1 holds %2, its editor shows %3")
                                            .arg(editor->objectName())
                                            .arg(held, 0, 'g', 17)
                                            .arg(shown, 0, 'g', 17)),
                             __FILE__, __LINE__);
                return -1;
            }
            // focus in and out without typing: no edit, the held value stays as it is
            const int steps = document->undoStack()->count();
            QMetaObject::invokeMethod(editor, "editingFinished");
            document->flush();
            if (document->undoStack()->count() != steps ||
                *core::numberAt(document->scenario(), info->path) != held) {
                QTest::qFail(qPrintable(editor->objectName() +
                                        QStringLiteral(": leaving it untouched edited it")),
                             __FILE__, __LINE__);
                return -1;
            }
            ++checked;
        }
    }
    return checked;
}

} // namespace

void EditorsTest::everyEditorShowsTheHeldValueAtEitherEnd()
{
    MainWindow window;
    window.show(); // a view refreshes while it is shown
    for (const views::ViewEntry &entry : views::viewRegistry())
        window.showView(entry.name); // every tab built, with its editors
    QStringList paths;
    const int inWindow = checkEditors(
        &window, window.document(),
        [&window](QWidget *editor) {
            QWidget *holder = editor->parentWidget();
            while (holder && !qobject_cast<views::View *>(holder))
                holder = holder->parentWidget();
            if (holder)
                window.showView(qobject_cast<views::View *>(holder)->snapshotName());
        },
        &paths);
    QVERIFY(inWindow > 0);
    views::SelectionWizard wizard(window.document());
    const int inWizard = checkEditors(
        &wizard, wizard.working(), [](QWidget *) {}, &paths);
    QVERIFY(inWizard > 0);
    qInfo("%d editors, %d ends: %s", int(paths.size()), inWindow + inWizard,
          qPrintable(paths.join(u' ')));
    for (const char *path :
         {"cost.throttle_factor", "serving.batch", "training.sequence_length", "cost.utilisation",
          "serving.ttft_target_s", "traffic.requests_per_day"})
        QVERIFY2(paths.contains(QLatin1String(path)), path);
}

QTEST_MAIN(EditorsTest)
#include "tst_editors.moc"
