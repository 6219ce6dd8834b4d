// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewregistry.h"

#include "views/compare/compareview.h"
#include "views/cost/costview.h"
#include "views/inside/anatomyview.h"
#include "views/inside/familyview.h"
#include "views/inside/hierarchyview.h"
#include "views/inside/matmulview.h"
#include "views/inside/raceview.h"
#include "views/inside/stackview.h"
#include "views/load/loadviews.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/precision/precisionview.h"
#include "views/precision/quantisationview.h"
#include "views/roofline/engineview.h"
#include "views/roofline/operatorsview.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/scale/interconnectview.h"
#include "views/scale/powerview.h"
#include "views/train/trainingview.h"
#include "views/wizard/checksview.h"
#include "views/wizard/decisionview.h"

#include <QCoreApplication>
#include <QHash>

namespace views {

const QList<ViewEntry> &viewRegistry()
{
    static const QList<ViewEntry> entries = {
        {QStringLiteral("roofline"), QStringLiteral("Roofline"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new RooflineView(d, p); }},
        {QStringLiteral("throughput"), QStringLiteral("Roofline"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new ThroughputView(d, p); }},
        {QStringLiteral("memory"), QStringLiteral("Memory"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new MemoryView(d, p); }},
        {QStringLiteral("kv"), QStringLiteral("Memory"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new KvView(d, p); }},
        {QStringLiteral("oom"), QStringLiteral("Memory"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new OomView(d, p); }},
        {QStringLiteral("anatomy"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new AnatomyView(d, p); }},
        {QStringLiteral("hierarchy"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new HierarchyView(d, p); }},
        {QStringLiteral("matmul"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new MatmulView(d, p); }},
        {QStringLiteral("cpu-vs-accelerator"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new RaceView(d, p); }},
        {QStringLiteral("family"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new FamilyView(d, p); }},
        {QStringLiteral("stack"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new StackView(d, p); }},
        {QStringLiteral("operators"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new OperatorsView(d, p); }},
        {QStringLiteral("engine"), QStringLiteral("Inside"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new EngineView(d, p); }},
        {QStringLiteral("checks"), QStringLiteral("Wizard"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new ChecksView(d, p); }},
        {QStringLiteral("decision"), QStringLiteral("Wizard"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new DecisionView(d, p); }},
        {QStringLiteral("load-curve"), QStringLiteral("Load"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new LoadCurveView(d, p); }},
        {QStringLiteral("load-timeline"), QStringLiteral("Load"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new LoadTimelineView(d, p); }},
        {QStringLiteral("precision"), QStringLiteral("Precision"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new PrecisionView(d, p); }},
        {QStringLiteral("quantisation"), QStringLiteral("Precision"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new QuantisationView(d, p); }},
        {QStringLiteral("interconnect"), QStringLiteral("Scale"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new InterconnectView(d, p); }},
        {QStringLiteral("power"), QStringLiteral("Scale"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new PowerView(d, p); }},
        {QStringLiteral("training"), QStringLiteral("Training"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new TrainingView(d, p); }},
        {QStringLiteral("cost"), QStringLiteral("Cost"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new CostView(d, p); }},
        {QStringLiteral("compare"), QStringLiteral("Compare"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new CompareView(d, p); }},
    };
    return entries;
}

QString listLabel(const QString &name, const QString &title)
{
    static const QHash<QString, QString> labels = {
        {QStringLiteral("anatomy"), QCoreApplication::translate("views", "Anatomy")},
        {QStringLiteral("hierarchy"), QCoreApplication::translate("views", "Memory hierarchy")},
        {QStringLiteral("matmul"), QCoreApplication::translate("views", "Matrix multiply")},
        {QStringLiteral("cpu-vs-accelerator"),
         QCoreApplication::translate("views", "CPU vs accelerator")},
        {QStringLiteral("family"), QCoreApplication::translate("views", "Family of chips")},
        {QStringLiteral("stack"), QCoreApplication::translate("views", "Software stack")},
        {QStringLiteral("operators"), QCoreApplication::translate("views", "Operators")},
        {QStringLiteral("engine"), QCoreApplication::translate("views", "Engine techniques")},
    };
    return labels.value(name, title);
}

const ViewEntry *findView(const QString &name)
{
    for (const ViewEntry &entry : viewRegistry()) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

QStringList viewNames()
{
    QStringList names;
    for (const ViewEntry &entry : viewRegistry())
        names << entry.name;
    return names;
}

} // namespace views
