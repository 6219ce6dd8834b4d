// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own presets: a library of devices, models and links that reads back exactly what
// was written, is validated like the built-ins, joins the preset list without shadowing a
// built-in, and makes scenarios that use it self-contained when saved.

#include "testsupport.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"

#include <QObject>

namespace {

core::PresetFile sampleLibrary()
{
    core::PresetFile library;
    core::DeviceSpec device = core::devicePreset("lesson-accelerator").value();
    device.presetId = "my-box";
    device.name = "My box, 96 GB";
    device.memoryGb = 96;
    device.sources["memory_gb"] = "our vendor's quote, 2026-11";
    library.devices.push_back(device);
    core::ModelSpec model = core::modelPreset("lesson-7b").value();
    model.presetId = "our-13b";
    model.name = "Our 13B";
    model.parameters = 13e9;
    library.models.push_back(model);
    core::LinkSpec link;
    link.presetId = "our-fabric";
    link.name = "Our fabric";
    link.kind = "network";
    link.perDirectionGbPerSecond = 50;
    link.sources["*"] = "measured, 2026-10";
    library.links.push_back(link);
    return library;
}

} // namespace

class UserPresets : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();
    void libraryRoundTrips();
    void userPresetsJoinTheList();
    void scenariosUsingThemAreSelfContained();
    void refusalsChangeNothing_data();
    void refusalsChangeNothing();
    void badFilesNameTheField_data();
    void badFilesNameTheField();
};

void UserPresets::cleanup()
{
    QVERIFY(core::setUserPresets({}).ok());
}

void UserPresets::libraryRoundTrips()
{
    const core::PresetFile library = sampleLibrary();
    auto back = core::readPresetLibrary(core::presetLibraryToJson(library));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->devices.size(), std::size_t(1));
    QCOMPARE(back->devices[0].presetId, std::string("my-box"));
    QCOMPARE(back->devices[0].name, std::string("My box, 96 GB"));
    QCOMPARE(back->devices[0].memoryGb, 96.0);
    QCOMPARE(back->devices[0].bandwidthGbPerSecond, library.devices[0].bandwidthGbPerSecond);
    QCOMPARE(back->devices[0].peak(core::NumericFormat::Bf16),
             library.devices[0].peak(core::NumericFormat::Bf16));
    QCOMPARE(back->devices[0].sources.at("memory_gb"), std::string("our vendor's quote, 2026-11"));
    QCOMPARE(back->models.size(), std::size_t(1));
    QCOMPARE(back->models[0].parameters, 13e9);
    QCOMPARE(back->models[0].layers, library.models[0].layers);
    QCOMPARE(back->links.size(), std::size_t(1));
    QCOMPARE(back->links[0].perDirectionGbPerSecond, 50.0);
    QCOMPARE(back->links[0].kind, std::string("network"));
    // a shared single-kind file is a library too
    auto devicesOnly = core::readPresetLibrary(
        R"({"format": "accel-explorer/devices", "devices": [{"id": "x-1", "memory_gb": 16,
            "bandwidth_gb_s": 300, "peak_tflops": {"fp16": 60}}]})");
    QVERIFY(devicesOnly.ok());
    QCOMPARE(devicesOnly->devices.size(), std::size_t(1));
}

void UserPresets::userPresetsJoinTheList()
{
    const std::size_t builtIn = core::presetList().size();
    QVERIFY(core::setUserPresets(sampleLibrary()).ok());
    QCOMPARE(core::presetList().size(), builtIn + 3);
    bool listed = false;
    for (const core::PresetInfo &info : core::presetList())
        listed = listed || (info.id == "my-box" && info.kind == "device");
    QVERIFY(listed);
    QCOMPARE(core::devicePreset("my-box").value().memoryGb, 96.0);
    QCOMPARE(core::modelPreset("our-13b").value().parameters, 13e9);
    QCOMPARE(core::linkPreset("our-fabric").value().perDirectionGbPerSecond, 50.0);
    QVERIFY(core::isUserPreset("my-box"));
    QVERIFY(!core::isUserPreset("lesson-accelerator"));
    QVERIFY(core::setUserPresets({}).ok());
    QCOMPARE(core::presetList().size(), builtIn);
    QVERIFY(!core::devicePreset("my-box").ok());
}

void UserPresets::scenariosUsingThemAreSelfContained()
{
    QVERIFY(core::setUserPresets(sampleLibrary()).ok());
    auto loaded = core::readScenario(R"({"device": "my-box", "model": "our-13b"})");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->scenario.device.memoryGb, 96.0);
    QCOMPARE(loaded->scenario.model.parameters, 13e9);
    const std::string saved = core::writeScenario(loaded->scenario);
    QVERIFY(saved.find("\"device\": \"my-box\"") == std::string::npos); // inline, not by id
    QVERIFY(core::setUserPresets({}).ok());
    auto elsewhere = core::readScenario(saved); // a colleague without the preset opens it
    QVERIFY2(elsewhere.ok(), elsewhere.ok() ? "" : elsewhere.error().message.c_str());
    QCOMPARE(elsewhere->scenario.device.memoryGb, 96.0);
    QCOMPARE(elsewhere->scenario.model.parameters, 13e9);
}

void UserPresets::refusalsChangeNothing_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("message");
    QTest::newRow("a built-in id") << "lesson-accelerator"
                                   << "is a built-in preset";
    QTest::newRow("used twice") << "our-13b"
                                << "is used twice";
    QTest::newRow("not kebab-case") << "My Box"
                                    << "kebab-case";
}

void UserPresets::refusalsChangeNothing()
{
    QFETCH(QString, id);
    QFETCH(QString, message);
    QVERIFY(core::setUserPresets(sampleLibrary()).ok());
    core::PresetFile bad = sampleLibrary();
    bad.devices[0].presetId = id.toStdString();
    auto refused = core::setUserPresets(bad);
    QVERIFY(!refused.ok());
    QVERIFY2(QString::fromStdString(refused.error().message).contains(message),
             refused.error().message.c_str());
    QCOMPARE(refused.error().path, std::string("/devices/0/id"));
    QVERIFY(core::devicePreset("my-box").ok()); // the previous library stays
}

void UserPresets::badFilesNameTheField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("wrong format") << QByteArray(R"({"format": "other", "devices": []})")
                                  << "/format"
                                  << "accel-explorer/presets";
    QTest::newRow("no lists") << QByteArray(R"({"format": "accel-explorer/presets"})") << ""
                              << "needs \"models\", \"devices\" or \"links\"";
    QTest::newRow("bad device")
        << QByteArray(
               R"({"devices": [{"id": "x", "memory_gb": -1, "bandwidth_gb_s": 1, "peak_tflops": {"bf16": 1}}]})")
        << "/devices/0/memory_gb"
        << "between";
    QTest::newRow("bad link") << QByteArray(R"({"links": [{"id": "l", "kind": "pipe",
                                             "per_direction_gb_s": 5}]})")
                              << "/links/0/kind"
                              << "one of host, device, network";
    QTest::newRow("not json") << QByteArray("{\"devices\": [") << ""
                              << "";
}

void UserPresets::badFilesNameTheField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, message);
    auto read =
        core::readPresetLibrary(std::string_view(json.constData(), std::size_t(json.size())));
    QVERIFY(!read.ok());
    QCOMPARE(QString::fromStdString(read.error().path), path);
    QVERIFY2(QString::fromStdString(read.error().message).contains(message),
             read.error().message.c_str());
}

QTEST_GUILESS_MAIN(UserPresets)
#include "tst_userpresets.moc"
