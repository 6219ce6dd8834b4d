// SPDX-License-Identifier: GPL-3.0-or-later
// Every editor of a scenario number shows the value the scenario holds, at either end of the
// range the scenario file accepts (issue #41, item 3: a throttle of 1e-307 showed as 0.05, a
// training sequence of 1e8 tokens as 1e7), and leaving an editor untouched changes nothing.

#include "app/mainwindow.h"
#include "views/document/scenariodocument.h"
#include "views/load/loadrunner.h"
#include "views/viewregistry.h"
#include "views/widgets/allinputs.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/scenariopanel.h"
#include "views/widgets/view.h"
#include "views/wizard/selectionwizard.h"

#include "core/data/scenarioio.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>
#include <QUrl>

#include <cmath>
#include <functional>

class EditorsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyEditorShowsTheHeldValueAtEitherEnd();
    void everyInputHasAnEditorInTheWindow();
    void aCountOfOneIsSingular();
    void noTrailingZeros();
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

// Issue #42 item 9: the load, engine and sensitivity inputs could only be set in JSON. View >
// All Inputs (F8) holds an editor for every number of the scenario format; an edit there is
// the document's (one undo step), and each shows the held value at either end of its range.
void EditorsTest::everyInputHasAnEditorInTheWindow()
{
    MainWindow window;
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    views::AllInputsPanel *panel = window.showAllInputs(QStringLiteral("load.burstiness"));
    QVERIFY(panel && panel->isVisible());
    QTRY_COMPARE(QApplication::focusWidget(), panel->editor(QStringLiteral("load.burstiness")));
    views::ScenarioDocument *document = window.document();
    int rows = 0;
    for (const core::ParameterInfo &info : core::parameterTable()) {
        if (!info.field)
            continue; // the per-format peaks: the device's, set with the Device picker
        ++rows;
        const QString path = QString::fromLatin1(info.path.data(), qsizetype(info.path.size()));
        views::NumberEditor *editor = panel->editor(path);
        QVERIFY2(editor, qPrintable(path));
        // typed into the editor: the document holds it, one undo step
        document->reset(core::lessonDefaultScenario());
        document->flush();
        const double scale = editor->property("displayScale").toDouble();
        const double held = core::numberAt(document->scenario(), info.path).value_or(0.0);
        for (const double value : {info.maximum, info.minimum}) {
            if (value == held)
                continue; // no change, no edit
            const int steps = document->undoStack()->count();
            editor->setValue(value * scale);
            QMetaObject::invokeMethod(editor, "editingFinished");
            document->flush();
            if (!panel->lastRefusal().isEmpty())
                continue; // another input refuses it here (a prompt longer than the context)
            QVERIFY2(document->undoStack()->count() == steps + 1, qPrintable(path));
            QCOMPARE(*core::numberAt(document->scenario(), info.path), value);
            break;
        }
    }
    QVERIFY(rows > 100);
    QStringList paths;
    QVERIFY(checkEditors(
                panel, document, [](QWidget *) {}, &paths) > 2 * 100);
    // the Engine techniques view's "Set ... (engine.prefix_tokens)" opens its editor
    document->reset(core::lessonDefaultScenario()); // every technique off
    document->flush();
    window.showView(QStringLiteral("engine"));
    QWidget *engine = window.findChild<QWidget *>(QStringLiteral("engineView"));
    QVERIFY(engine);
    auto *browser = engine->findChild<QTextBrowser *>();
    QVERIFY(browser);
    QVERIFY(browser->toHtml().contains(QStringLiteral("input:engine.prefix_tokens")));
    emit browser->anchorClicked(QUrl(QStringLiteral("input:engine.prefix_tokens")));
    QTRY_COMPARE(QApplication::focusWidget(),
                 panel->editor(QStringLiteral("engine.prefix_tokens")));
    // found by typing
    panel->setFilter(QStringLiteral("burst"));
    QVERIFY(panel->editor(QStringLiteral("load.burstiness"))->isVisible());
    QVERIFY(!panel->editor(QStringLiteral("serving.batch"))->isVisible());
    panel->setFilter(QString());

    // issue #42 item 9: the word inputs (arrivals, router, length distributions, draft) had no
    // editor at all: each has a picker with exactly the words the scenario file accepts, a
    // choice is one undo step and reads back from a saved file, a refused one says why
    QVERIFY(core::choiceTable().size() >= 5);
    for (const core::ChoiceInfo &info : core::choiceTable()) {
        const QString path = QString::fromLatin1(info.path.data(), qsizetype(info.path.size()));
        QComboBox *picker = panel->choice(path);
        QVERIFY2(picker, qPrintable(path));
        QCOMPARE(picker->count(), int(info.options.size()));
        document->reset(core::lessonDefaultScenario());
        document->flush();
        QCOMPARE(picker->currentText().toStdString(),
                 *core::choiceAt(document->scenario(), info.path));
        for (int index = 0; index < picker->count(); ++index) {
            const QString word = picker->itemText(index);
            if (word == QStringLiteral("trace"))
                continue;                                   // needs a trace file: refused below
            document->reset(core::lessonDefaultScenario()); // each word its own first edit
            document->flush();
            if (word.toStdString() == *core::choiceAt(document->scenario(), info.path))
                continue;
            const int steps = document->undoStack()->count();
            picker->setCurrentIndex(index);
            emit picker->activated(index);
            document->flush();
            QVERIFY2(panel->lastRefusal().isEmpty(), qPrintable(panel->lastRefusal()));
            QCOMPARE(document->undoStack()->count(), steps + 1);
            QCOMPARE(QString::fromStdString(*core::choiceAt(document->scenario(), info.path)),
                     word);
            const auto back = core::readScenario(core::writeScenario(document->scenario()));
            QVERIFY2(back, qPrintable(path));
            QCOMPARE(QString::fromStdString(*core::choiceAt(back.value().scenario, info.path)),
                     word);
        }
    }
    document->reset(core::lessonDefaultScenario());
    document->flush();
    QComboBox *arrivals = panel->choice(QStringLiteral("load.arrivals"));
    const int trace = arrivals->findText(QStringLiteral("trace"));
    arrivals->setCurrentIndex(trace);
    emit arrivals->activated(trace);
    document->flush();
    QVERIFY2(panel->lastRefusal().contains(QStringLiteral("load.trace_file")),
             qPrintable(panel->lastRefusal()));
    QCOMPARE(document->scenario().load.arrivals, std::string("poisson"));
    QCOMPARE(arrivals->currentText(), QStringLiteral("poisson")); // the word still in force

    // issue #42 item 9: the scenario panel groups its inputs, and the rest is one click away
    panel->parentWidget()->hide(); // the All Inputs dock
    QVERIFY(!panel->isVisible());
    QLabel *more = window.scenarioPanel()->moreInputsLinks();
    QVERIFY(more && more->isVisible());
    for (const QString &section :
         {QStringLiteral("traffic."), QStringLiteral("load."), QStringLiteral("engine.")}) {
        QVERIFY2(more->text().contains(QStringLiteral("href=\"%1\"").arg(section)),
                 qPrintable(more->text()));
        emit more->linkActivated(section);
        QCoreApplication::processEvents();
        QVERIFY(panel->isVisible());
        for (const core::ParameterInfo &info : core::parameterTable()) {
            const QString path = QString::fromLatin1(info.path.data(), qsizetype(info.path.size()));
            if (views::NumberEditor *editor = panel->editor(path))
                QCOMPARE(editor->isVisible(), path.startsWith(section));
        }
    }
    QVERIFY(more->text().contains(QStringLiteral("href=\"all\"")));
    emit more->linkActivated(QStringLiteral("all")); // all of them
    QCoreApplication::processEvents();
    QVERIFY(panel->editor(QStringLiteral("serving.batch"))->isVisible());
}

// "1 devices" on the Training tab: a count noun is singular at one, as the scenario panel says.
void EditorsTest::aCountOfOneIsSingular()
{
    views::ScenarioDocument document;
    views::NumberEditor editor(&document, QStringLiteral("training.devices"), nullptr);
    editor.setValue(1);
    QCOMPARE(editor.suffix(), QStringLiteral(" device"));
    editor.setValue(8);
    QCOMPARE(editor.suffix(), QStringLiteral(" devices"));
    views::NumberEditor seconds(&document, QStringLiteral("serving.ttft_target_s"), nullptr);
    seconds.setValue(1);
    QCOMPARE(seconds.suffix(), QStringLiteral(" s")); // a unit symbol, not a plural
}

// "60.000 days" on the Training tab: the decimals a parameter's smallest value needs are not
// shown where the value has none; money keeps its cents.
void EditorsTest::noTrailingZeros()
{
    views::ScenarioDocument document;
    views::NumberEditor deadline(&document, QStringLiteral("training.deadline_days"), nullptr);
    deadline.setValue(60);
    QCOMPARE(deadline.text(), QStringLiteral("60 days"));
    deadline.setValue(0.25);
    QCOMPARE(deadline.text(), QStringLiteral("0.25 days"));
    QCOMPARE(deadline.valueFromText(deadline.text()), 0.25); // what is shown reads back
    views::NumberEditor budget(&document, QStringLiteral("training.budget_usd"), nullptr);
    budget.setValue(5000);
    QCOMPARE(budget.text(), QStringLiteral("5,000.00 USD"));
}

QTEST_MAIN(EditorsTest)
#include "tst_editors.moc"
