// SPDX-License-Identifier: GPL-3.0-or-later
// accel-explorer: the desktop application, and its command-line renderer:
//   accel-explorer [SCENARIO]
//   accel-explorer --snapshot VIEW -o FILE.{png,svg,pdf} [SCENARIO] [--set PATH=VALUE ...]
//                  [--size WxH] [--presenter] [--units GB|GiB|both] [--step N]
//                  [--theme system|light|dark] [--high-contrast]
//                  [--compare SCENARIO_B | device:ID | model:ID | weights:FORMAT]  (compare view)
//   accel-explorer --snapshot window -o FILE.png [--presenter] [--tour N] [--theme ...]
//                  the whole main window
//   accel-explorer --snapshot list
//   accel-explorer --report -o FILE.{pdf,html} [SCENARIO] [--set PATH=VALUE ...] [--units ...]
//   accel-explorer --slide VIEW -o FILE.{png,svg,pdf} [SCENARIO] [--title TEXT] [--units ...]
//                  one view at 1920x1080 with a title and the key assumptions
//   accel-explorer --tour STEP   opens the lesson tour at a step
//   accel-explorer --handout -o FILE.pdf [--answers]   the tour as a printable handout (the
//                  student's copy with blanks, or the teacher's with the answers)
//   accel-explorer --presenter   opens in presenter mode (full screen, 1.6x, high contrast)

#include "mainwindow.h"

#include "views/compare/compareview.h"
#include "views/document/scenariodocument.h"
#include "views/export/handout.h"
#include "views/export/report.h"
#include "views/export/slide.h"
#include "views/io/atomicwriter.h"
#include "views/io/filereader.h"
#include "views/tour/tour.h"
#include "views/tour/tourpanel.h"
#include "views/viewregistry.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/comparison.h"
#include "core/model/formats.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QIcon>
#include <QImageWriter>
#include <QLibraryInfo>
#include <QLocale>
#include <QPixmap>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTextStream>
#include <QTranslator>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

namespace {

constexpr int kBadInput = 2;

struct Options
{
    QString snapshot;
    QString slide;
    QString title;
    QString compare; ///< scenario B for the compare view, or device:ID, model:ID, weights:FORMAT
    bool report = false;
    bool handout = false;
    int tour = 0;         ///< 1-based; 0: no tour
    bool reveal = false;  ///< the tour step after Reveal (a predict step hides its number before)
    bool answers = false; ///< the handout's teacher copy, with the answers filled in
    QString output;
    QString scenario;
    QStringList overrides;
    QSize size{1280, 800};
    bool presenter = false;
    std::optional<views::Theme> theme; ///< unset: the saved setting (the app) or System
    bool highContrast = false;
    QString units = QStringLiteral("GB");
    int step = 0;
};

void errorLine(const QString &message)
{
    std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
}

constexpr const char *kUsage =
    "Usage:\n"
    "  accel-explorer [SCENARIO] [--set PATH=VALUE]... [--tour STEP] [--presenter]\n"
    "                 [--theme system|light|dark] [--high-contrast]\n"
    "  accel-explorer --snapshot VIEW|window|list -o FILE.png|svg|pdf [SCENARIO]\n"
    "                 [--set PATH=VALUE]... [--size WxH] [--presenter] [--theme ...]\n"
    "                 [--high-contrast] [--units GB|GiB|both] [--step N]\n"
    "                 [--tour STEP [--reveal]]\n"
    "                 [--compare SCENARIO|device:ID|model:ID|weights:FORMAT]\n"
    "  accel-explorer --slide VIEW -o FILE.png|svg|pdf [SCENARIO] [--title TEXT]\n"
    "  accel-explorer --report -o FILE.pdf|html [SCENARIO] [--units GB|GiB|both]\n"
    "  accel-explorer --handout -o FILE.pdf [--answers]\n"
    "  accel-explorer --help | --version\n"
    "\n"
    "SCENARIO is a scenario file or a built-in scenario id (accel-calc presets lists them).\n"
    "The render commands (--snapshot, --slide, --report, --handout) need no display.\n"
    "Numbers without a window: accel-calc evaluate|sweep|check|import-hf|presets.\n";

bool parse(const QStringList &arguments, Options &options, QString &error)
{
    // Each option with a value, and what to say when the value is missing or wrong.
    struct ValueOption
    {
        QStringList names;
        QString valueName;
        QString whenMissing;
    };
    const QList<ValueOption> valueOptions = {
        {{QStringLiteral("snapshot")},
         QStringLiteral("VIEW"),
         QStringLiteral("--snapshot needs a view name (--snapshot list names them)")},
        {{QStringLiteral("slide")},
         QStringLiteral("VIEW"),
         QStringLiteral("--slide needs a view name (--snapshot list names them)")},
        {{QStringLiteral("compare")},
         QStringLiteral("B"),
         QStringLiteral("--compare needs a scenario, device:ID, model:ID or weights:FORMAT")},
        {{QStringLiteral("title")}, QStringLiteral("TEXT"), QStringLiteral("--title needs a text")},
        {{QStringLiteral("tour")},
         QStringLiteral("STEP"),
         QStringLiteral("--tour needs a step number, 1 or more")},
        {{QStringLiteral("o"), QStringLiteral("output")},
         QStringLiteral("FILE"),
         QStringLiteral("-o needs a file name")},
        {{QStringLiteral("set")},
         QStringLiteral("PATH=VALUE"),
         QStringLiteral("--set needs PATH=VALUE, e.g. serving.batch=32")},
        {{QStringLiteral("size")},
         QStringLiteral("WxH"),
         QStringLiteral("--size needs WxH, e.g. 1920x1080")},
        {{QStringLiteral("theme")},
         QStringLiteral("THEME"),
         QStringLiteral("--theme is system, light or dark")},
        {{QStringLiteral("units")},
         QStringLiteral("UNITS"),
         QStringLiteral("--units is GB, GiB or both")},
        {{QStringLiteral("step")},
         QStringLiteral("N"),
         QStringLiteral("--step needs a whole number")},
    };
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    for (const ValueOption &option : valueOptions)
        parser.addOption(QCommandLineOption(option.names, {}, option.valueName));
    for (const char *flag :
         {"report", "handout", "presenter", "high-contrast", "reveal", "answers"})
        parser.addOption(QCommandLineOption(QString::fromLatin1(flag)));
    if (!parser.parse(arguments)) {
        if (!parser.unknownOptionNames().isEmpty()) {
            const QString name = parser.unknownOptionNames().first();
            error = QStringLiteral("unknown option %1%2")
                        .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name);
            return false;
        }
        // "Missing value after '--size'.": say what that option needs, as before
        for (const ValueOption &option : valueOptions) {
            for (const QString &name : option.names) {
                const QString dashed =
                    (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
                if (parser.errorText().contains(QLatin1Char('\'') + dashed + QLatin1Char('\''))) {
                    error = option.whenMissing;
                    return false;
                }
            }
        }
        error = parser.errorText();
        return false;
    }
    auto fail = [&](const QString &name) {
        for (const ValueOption &option : valueOptions)
            if (option.names.contains(name))
                error = option.whenMissing;
        return false;
    };
    options.snapshot = parser.value(QStringLiteral("snapshot"));
    options.slide = parser.value(QStringLiteral("slide"));
    if (parser.isSet(QStringLiteral("slide")) && options.slide.isEmpty())
        return fail(QStringLiteral("slide"));
    options.compare = parser.value(QStringLiteral("compare"));
    if (parser.isSet(QStringLiteral("compare")) && options.compare.isEmpty())
        return fail(QStringLiteral("compare"));
    options.title = parser.value(QStringLiteral("title"));
    options.report = parser.isSet(QStringLiteral("report"));
    options.handout = parser.isSet(QStringLiteral("handout"));
    if (parser.isSet(QStringLiteral("tour"))) {
        bool ok = false;
        options.tour = parser.value(QStringLiteral("tour")).toInt(&ok);
        if (!ok || options.tour < 1)
            return fail(QStringLiteral("tour"));
        // a step past the last one used to show the last step without a word (issue #23)
        const auto steps = views::tourSteps().size();
        if (options.tour > steps) {
            error = QStringLiteral("--tour: the tour has steps 1 to %1 (got %2)")
                        .arg(steps)
                        .arg(options.tour);
            return false;
        }
    }
    options.output = parser.value(QStringLiteral("output"));
    options.overrides = parser.values(QStringLiteral("set"));
    if (parser.isSet(QStringLiteral("size"))) {
        const auto match = QRegularExpression(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"))
                               .match(parser.value(QStringLiteral("size")));
        if (!match.hasMatch())
            return fail(QStringLiteral("size"));
        options.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
        // larger pictures are beyond what the painter draws (99999x99999 flooded warnings)
        constexpr int kLargestSide = 16384;
        if (options.size.width() > kLargestSide || options.size.height() > kLargestSide) {
            error = QStringLiteral("--size: at most %1x%1 pixels (got %2x%3)")
                        .arg(kLargestSide)
                        .arg(options.size.width())
                        .arg(options.size.height());
            return false;
        }
    }
    options.presenter = parser.isSet(QStringLiteral("presenter"));
    if (parser.isSet(QStringLiteral("theme"))) {
        options.theme = views::themeFromName(parser.value(QStringLiteral("theme")));
        if (!options.theme)
            return fail(QStringLiteral("theme"));
    }
    options.highContrast = parser.isSet(QStringLiteral("high-contrast"));
    options.reveal = parser.isSet(QStringLiteral("reveal"));
    options.answers = parser.isSet(QStringLiteral("answers"));
    if (options.answers && !parser.isSet(QStringLiteral("handout"))) {
        error = QStringLiteral("--answers is for --handout (the teacher's copy)");
        return false;
    }
    if (options.reveal && options.tour == 0) {
        error = QStringLiteral("--reveal needs --tour STEP");
        return false;
    }
    if (parser.isSet(QStringLiteral("units"))) {
        options.units = parser.value(QStringLiteral("units"));
        if (options.units != QStringLiteral("GB") && options.units != QStringLiteral("GiB") &&
            options.units != QStringLiteral("both"))
            return fail(QStringLiteral("units"));
    }
    if (parser.isSet(QStringLiteral("step"))) {
        bool ok = false;
        options.step = parser.value(QStringLiteral("step")).toInt(&ok);
        if (!ok)
            return fail(QStringLiteral("step"));
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        error = QStringLiteral("more than one scenario given");
        return false;
    }
    options.scenario = positional.value(0);
    return true;
}

/** The scenario from a file, a built-in id, or the lesson default, with --set applied. */
bool loadScenario(const Options &options, core::Scenario &scenario, QString &label)
{
    std::string text;
    if (options.scenario.isEmpty()) {
        text = std::string(*core::scenarioPresetText("lesson-default"));
        label = QStringLiteral("builtin:lesson-default");
    } else if (QFileInfo::exists(options.scenario)) {
        QByteArray bytes; // bounded: /dev/zero or a huge sparse file is refused, not read
        QString error;
        if (!views::readFileAtMost(options.scenario, qint64(core::kLargestInputBytes),
                                   QStringLiteral("a scenario file"), &bytes, &error)) {
            errorLine(error.replace(options.scenario + QStringLiteral(": "),
                                    options.scenario + QStringLiteral(": /: ")));
            return false;
        }
        text = bytes.toStdString();
        label = options.scenario;
    } else if (auto builtin = core::scenarioPresetText(options.scenario.toStdString())) {
        text = std::string(*builtin);
        label = QStringLiteral("builtin:") + options.scenario;
    } else {
        errorLine(
            QStringLiteral("%1: /: cannot open the file (and no built-in scenario has that id)")
                .arg(options.scenario));
        return false;
    }
    std::vector<std::string> sets;
    for (const QString &o : options.overrides)
        sets.push_back(o.toStdString());
    auto loaded = core::readScenario(text, sets);
    if (!loaded) {
        const QString where = QString::fromStdString(loaded.error().path);
        errorLine(QStringLiteral("%1: %2: %3")
                      .arg(label, where.isEmpty() ? QStringLiteral("/") : where,
                           QString::fromStdString(loaded.error().message)));
        return false;
    }
    for (const core::Diagnostic &w : loaded.value().warnings)
        errorLine(
            QStringLiteral("%1: %2: warning: %3")
                .arg(label, QString::fromStdString(w.path), QString::fromStdString(w.message)));
    scenario = loaded.value().scenario;
    return true;
}

core::MemoryUnits unitsOf(const Options &options)
{
    return options.units == QStringLiteral("GiB")    ? core::MemoryUnits::GiB
           : options.units == QStringLiteral("both") ? core::MemoryUnits::Both
                                                     : core::MemoryUnits::GB;
}

/** --compare: B as a scenario of its own, or as A with one preset or format swapped. */
bool applyCompare(const Options &options, const core::Scenario &a, views::CompareView &view)
{
    const QString value = options.compare;
    const qsizetype colon = value.indexOf(QLatin1Char(':'));
    const QString kind = colon > 0 ? value.left(colon) : QString();
    const std::string rest = value.mid(colon + 1).toStdString();
    core::ScenarioVariant variant;
    if (kind == QStringLiteral("device")) {
        variant.deviceId = rest;
    } else if (kind == QStringLiteral("model")) {
        variant.modelId = rest;
    } else if (kind == QStringLiteral("weights")) {
        variant.weightFormat = core::parseFormat(rest);
        if (!variant.weightFormat) {
            errorLine(QStringLiteral("--compare: unknown weight format \"%1\"")
                          .arg(value.mid(colon + 1)));
            return false;
        }
        if (!core::isStorageFormat(*variant.weightFormat)) { // issue #20: tf32 was accepted
            errorLine(QStringLiteral("--compare: %1 is a compute format and cannot store weights "
                                     "(fp32, bf16, fp16, fp8, int8, int4 can)")
                          .arg(value.mid(colon + 1)));
            return false;
        }
    } else {
        Options b = options;
        b.scenario = value;
        b.overrides.clear();
        core::Scenario scenario;
        QString label;
        if (!loadScenario(b, scenario, label))
            return false;
        view.setScenarioB(scenario, label);
        return true;
    }
    if (auto checked = core::applyVariant(a, variant); !checked) {
        errorLine(
            QStringLiteral("--compare: %1").arg(QString::fromStdString(checked.error().message)));
        return false;
    }
    view.setVariant(variant);
    return true;
}

/** Snapshots: presenter mode is 1.6x and high contrast, as on the projector. */
void applyAppearance(const Options &options)
{
    views::applyAppearance({options.theme.value_or(views::Theme::System),
                            options.highContrast || options.presenter, options.presenter});
}

/** --snapshot window: the whole main window as a user sees it (presenter mode, tour, theme),
 *  with settings of its own so the user's saved layout and files play no part. */
int windowSnapshot(const Options &options, const core::Scenario &scenario)
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.document()->reset(scenario, options.scenario);
    if (options.theme || options.highContrast)
        window.setTheme(options.theme.value_or(views::Theme::System), options.highContrast);
    window.show();
    if (options.presenter) {
        window.setPresenterScreenHeight(options.size.height()); // as on a projector that size
        window.setPresenterMode(true);
        window.setWindowState(Qt::WindowNoState); // the size asked for, not the offscreen screen's
    }
    window.resize(options.size);
    if (options.tour > 0) {
        window.startTour(options.tour - 1);
        if (options.reveal)
            window.tourPanel()->reveal();
    }
    QApplication::processEvents();
    window.document()->flush();
    views::settleOffscreen();
    const QImage picture = window.grab().toImage();
    QSettings().clear();
    QString error;
    if (!views::writeImageAtomically(options.output, picture, &error)) {
        errorLine(error);
        return 1;
    }
    return 0;
}

int snapshot(const Options &options)
{
    if (options.snapshot == QStringLiteral("list")) {
        QTextStream(stdout) << views::viewNames().join(QLatin1Char('\n')) << '\n';
        return 0;
    }
    const views::ViewEntry *entry = views::findView(options.snapshot);
    const bool window = options.snapshot == QStringLiteral("window");
    if (!entry && !window) {
        errorLine(QStringLiteral("accel-explorer: unknown view \"%1\"; valid views: %2")
                      .arg(options.snapshot, views::viewNames().join(QStringLiteral(", ")) +
                                                 QStringLiteral(", window")));
        return kBadInput;
    }
    if (options.output.isEmpty()) {
        errorLine(QStringLiteral("accel-explorer: --snapshot needs -o FILE.png|svg|pdf"));
        return kBadInput;
    }
    // a window is a picture: a suffix it cannot be is bad input, said before any work
    if (window && !QImageWriter::supportedImageFormats().contains(
                      QFileInfo(options.output).suffix().toLower().toLatin1())) {
        errorLine(QStringLiteral("accel-explorer: --snapshot window needs -o FILE.png (an image; "
                                 "got \"%1\")")
                      .arg(options.output));
        return kBadInput;
    }
    core::Scenario scenario;
    QString label;
    if (!loadScenario(options, scenario, label))
        return kBadInput;
    if (window)
        return windowSnapshot(options, scenario);
    applyAppearance(options);

    views::ScenarioDocument document;
    document.reset(scenario, options.scenario);
    document.setUnits(unitsOf(options));
    document.flush();
    // A never-shown chart renders as a thumbnail: show it off screen and let it lay out.
    std::unique_ptr<views::View> view(entry->create(&document, nullptr));
    views::layOutOffscreen(*view, options.size);
    if (options.step > 0)
        view->setStep(options.step);
    if (auto *compare = qobject_cast<views::CompareView *>(view.get());
        compare && !options.compare.isEmpty() && !applyCompare(options, scenario, *compare))
        return kBadInput;
    views::settleOffscreen();
    QString error;
    if (!view->exportTo(options.output, &error)) {
        errorLine(error);
        return 1;
    }
    return 0;
}

int slide(const Options &options)
{
    if (options.output.isEmpty()) {
        errorLine(QStringLiteral("accel-explorer: --slide needs -o FILE.png|svg|pdf"));
        return kBadInput;
    }
    core::Scenario scenario;
    QString label;
    if (!loadScenario(options, scenario, label))
        return kBadInput;
    QString error;
    if (!views::writeSlide(scenario, unitsOf(options), options.slide, options.output, &error,
                           options.title)) {
        errorLine(QStringLiteral("accel-explorer: ") + error);
        return views::findView(options.slide) ? 1 : kBadInput;
    }
    return 0;
}

int report(const Options &options)
{
    const QString suffix = QFileInfo(options.output).suffix().toLower();
    if (options.output.isEmpty() ||
        (suffix != QStringLiteral("pdf") && suffix != QStringLiteral("html"))) {
        errorLine(QStringLiteral("accel-explorer: --report needs -o FILE.pdf or FILE.html"));
        return kBadInput;
    }
    core::Scenario scenario;
    QString label;
    if (!loadScenario(options, scenario, label))
        return kBadInput;
    QString error;
    if (!views::writeReport(scenario, unitsOf(options), options.output, &error)) {
        errorLine(error);
        return 1;
    }
    return 0;
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char **argv)
{
    try {
        bool wantsSnapshot = false;
        for (int i = 1; i < argc; ++i)
            wantsSnapshot = wantsSnapshot || QByteArray(argv[i]) == "--snapshot" ||
                            QByteArray(argv[i]) == "--report" ||
                            QByteArray(argv[i]) == "--handout" || QByteArray(argv[i]) == "--slide";
        // Help and version only print: no window, so no display and no QApplication.
        for (int i = 1; i < argc; ++i) {
            const QByteArray arg(argv[i]);
            if (arg == "--version" || arg == "-v") {
                std::printf("accel-explorer %s (preset data %s)\n", ACCEL_VERSION,
                            std::string(core::presetDataDate()).c_str());
                return 0;
            }
            if (arg == "--help" || arg == "-h") {
                std::fputs(kUsage, stdout);
                return 0;
            }
        }
        if (!hasDisplay() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            if (!wantsSnapshot) { // Qt's own message here is a plugin error; say what to do
                errorLine(QStringLiteral(
                    "accel-explorer: no display to open a window on (DISPLAY and "
                    "WAYLAND_DISPLAY are unset). Run it in a desktop session or under xvfb-run, "
                    "or render without a window: --snapshot, --slide, --report, --handout "
                    "(--help lists them)."));
                return 1;
            }
            qputenv("QT_QPA_PLATFORM", "offscreen"); // rendering needs no display
        }

        QApplication app(argc, argv);
        QApplication::setOrganizationName(QStringLiteral("AcceleratorExplorer"));
        QApplication::setApplicationName(QStringLiteral("Accelerator Explorer"));
        QApplication::setApplicationVersion(QStringLiteral(ACCEL_VERSION));
        QApplication::setDesktopFileName(QStringLiteral("accel-explorer"));
        QIcon icon; // PNG sizes: no SVG icon-engine plugin needed
        for (int size : {16, 32, 48, 64, 128, 256})
            icon.addFile(QStringLiteral(":/icons/accel-explorer-%1.png").arg(size),
                         QSize(size, size));
        QApplication::setWindowIcon(icon);
        // Every user-facing string of the Qt side goes through tr(): a translation installed as
        // share/accel-explorer/translations/accel-explorer_<locale>.qm is picked up here, and
        // Qt's own strings (dialog buttons) follow the locale too.
        QTranslator qtStrings;
        if (qtStrings.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&qtStrings);
        QTranslator ours;
        if (ours.load(QLocale(), QStringLiteral("accel-explorer"), QStringLiteral("_"),
                      QApplication::applicationDirPath() +
                          QStringLiteral("/../share/accel-explorer/translations")))
            QApplication::installTranslator(&ours);

        Options options;
        QString error;
        if (!parse(QApplication::arguments(), options, error)) {
            errorLine(QStringLiteral("accel-explorer: ") + error);
            return kBadInput;
        }
        if (!options.snapshot.isEmpty())
            return snapshot(options);
        if (!options.slide.isEmpty())
            return slide(options);
        if (options.report)
            return report(options);
        if (options.handout) {
            if (!options.output.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive)) {
                errorLine(QStringLiteral("accel-explorer: --handout needs -o FILE.pdf"));
                return kBadInput;
            }
            if (!views::writeTourHandout(options.output, options.answers, &error)) {
                errorLine(error);
                return 1;
            }
            return 0;
        }

        MainWindow window;
        if (options.theme || options.highContrast)
            window.setTheme(options.theme.value_or(window.theme()),
                            options.highContrast || window.highContrast());
        if (!options.scenario.isEmpty() && QFileInfo::exists(options.scenario)) {
            // the file as on disk, the overrides on top as an unsaved edit (issue #20: they
            // were ignored); a bad override is refused before any window shows
            QString error;
            if (!window.openFileWithOverrides(options.scenario, options.overrides, &error) &&
                !options.overrides.isEmpty()) {
                errorLine(error);
                return kBadInput;
            }
        } else if (!options.scenario.isEmpty() || !options.overrides.isEmpty()) {
            core::Scenario scenario;
            QString label;
            if (!loadScenario(options, scenario, label))
                return kBadInput; // the message names the id, the path and what is wrong
            window.document()->reset(scenario);
        }
        // full screen from the first map: switched a moment after a normal show, openbox kept
        // a 1481x800 window (issue #23)
        if (options.presenter)
            window.setPresenterMode(true); // shows the window full screen
        else
            window.show();
        window.offerRecovery();
        if (options.tour > 0)
            window.startTour(options.tour - 1);
        return QApplication::exec();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "accel-explorer: internal error: %s\n", e.what());
        return 70;
    }
}
