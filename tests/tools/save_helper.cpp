// SPDX-License-Identifier: GPL-3.0-or-later
// Saves a scenario to PATH over and over, numbering each version in its name, until killed: the
// kill test (tst_robustness) SIGKILLs it mid-save hundreds of times.

#include "views/document/scenariodocument.h"

#include "core/data/scenarioio.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2)
        return 2;
    const QString path = QString::fromLocal8Bit(argv[1]);
    views::ScenarioDocument document;
    core::Scenario scenario = core::lessonDefaultScenario();
    for (long version = 1;; ++version) {
        scenario.name = "v" + std::to_string(version);
        scenario.serving.batch = double(version % 1000 + 1);
        document.reset(scenario);
        QString error;
        if (!document.save(path, &error)) {
            std::fprintf(stderr, "%s\n", error.toLocal8Bit().constData());
            return 1;
        }
        if (version == 1) {
            std::printf("saving\n"); // the parent starts its clock here
            std::fflush(stdout);
        }
    }
}
