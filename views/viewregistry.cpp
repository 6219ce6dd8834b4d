// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewregistry.h"

#include "anatomyview.h"
#include "checksview.h"
#include "compareview.h"
#include "costview.h"
#include "decisionview.h"
#include "familyview.h"
#include "hierarchyview.h"
#include "interconnectview.h"
#include "kvview.h"
#include "matmulview.h"
#include "memoryview.h"
#include "oomview.h"
#include "powerview.h"
#include "precisionview.h"
#include "quantisationview.h"
#include "raceview.h"
#include "rooflineview.h"
#include "stackview.h"
#include "throughputview.h"

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
        {QStringLiteral("checks"), QStringLiteral("Wizard"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new ChecksView(d, p); }},
        {QStringLiteral("decision"), QStringLiteral("Wizard"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new DecisionView(d, p); }},
        {QStringLiteral("precision"), QStringLiteral("Precision"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new PrecisionView(d, p); }},
        {QStringLiteral("quantisation"), QStringLiteral("Precision"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new QuantisationView(d, p); }},
        {QStringLiteral("interconnect"), QStringLiteral("Scale"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new InterconnectView(d, p); }},
        {QStringLiteral("power"), QStringLiteral("Scale"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new PowerView(d, p); }},
        {QStringLiteral("cost"), QStringLiteral("Cost"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new CostView(d, p); }},
        {QStringLiteral("compare"), QStringLiteral("Compare"),
         [](ScenarioDocument *d, QWidget *p) -> View * { return new CompareView(d, p); }},
    };
    return entries;
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
