// SPDX-License-Identifier: GPL-3.0-or-later
#include "raceview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/data/presets.h"
#include "core/model/scenario.h"
#include "core/model/units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

constexpr double kRaceSeconds = 4.0; // the slower lane's run when a class watches
constexpr int kFrameMs = 33;

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

RaceView::RaceView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new RaceCanvas(this))
    , m_cpu(new QComboBox(this))
    , m_start(new QPushButton(tr("Start the Race"), this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("raceView"));
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind != "device")
            continue;
        const auto device = core::devicePreset(info.id);
        if (device && device->family == core::DeviceFamily::Cpu)
            m_cpu->addItem(QString::fromStdString(info.name), QString::fromStdString(info.id));
    }
    m_cpu->setCurrentIndex(std::max(0, m_cpu->findData(QStringLiteral("amd-epyc-9654"))));
    connect(m_cpu, &QComboBox::activated, this, [this] { refresh(); });
    connect(m_start, &QPushButton::clicked, this, &RaceView::start);
    m_timer->setInterval(kFrameMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        m_elapsed += kFrameMs / 1000.0;
        m_canvas->setProgress(m_elapsed / kRaceSeconds);
        if (m_elapsed >= kRaceSeconds)
            m_timer->stop();
    });
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("CPU"), this));
    controls->addWidget(m_cpu);
    controls->addWidget(m_start);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_canvas, 1);
}

const core::Race &RaceView::race() const
{
    return m_canvas->race();
}

void RaceView::start()
{
    m_elapsed = 0;
    m_canvas->setProgress(0);
    m_timer->start();
}

void RaceView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const auto cpu = core::devicePreset(m_cpu->currentData().toString().toStdString());
    if (!cpu)
        return;
    m_canvas->setRace(core::race(s, cpu.value(), s.serving.batch), s.serving.batch);
}

QString RaceView::csv() const
{
    const core::Race &r = race();
    QStringList lines{QStringLiteral("work,device,seconds,flops_per_second,bound")};
    for (const core::RaceLane *lane : {&r.cpu, &r.accelerator}) {
        lines << QStringLiteral("matmul,\"%1\",%2,%3,%4")
                     .arg(fromStd(lane->device))
                     .arg(lane->matmulSeconds, 0, 'g', 6)
                     .arg(lane->matmulFlopsPerSecond, 0, 'g', 6)
                     .arg(QString::fromLatin1(core::boundKey(lane->matmulBound).data()));
        lines << QStringLiteral("decode_step,\"%1\",%2,%3,%4")
                     .arg(fromStd(lane->device))
                     .arg(lane->decodeSeconds, 0, 'g', 6)
                     .arg(lane->decodeFlopsPerSecond, 0, 'g', 6)
                     .arg(QString::fromLatin1(core::boundKey(lane->decodeBound).data()));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

RaceCanvas::RaceCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(520, 320);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RaceCanvas::setRace(const core::Race &race, double batch)
{
    m_race = race;
    m_batch = batch;
    update();
}

void RaceCanvas::setProgress(double progress)
{
    m_progress = std::clamp(progress, 0.0, 1.0);
    update();
}

void RaceCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    const QFont base = style::annotationFont(1.0);
    QFont bold = base;
    bold.setBold(true);
    QFont big = style::scaledFont(base, 1.25);
    big.setBold(true);
    const QFontMetricsF metrics(base);
    const double line = metrics.height();
    const double margin = line;
    const double w = width() - 2 * margin;
    const double labelWidth = std::min(w * 0.28, line * 13);
    const double barWidth = w - labelWidth;

    auto lanes = [&](double top, const QString &title, double cpuSeconds, double accSeconds,
                     double cpuRate, double accRate, core::Bound cpuBound, core::Bound accBound,
                     double speedup) {
        p.setFont(big);
        p.setPen(style::ink());
        p.drawText(QRectF(margin, top, w, line * 1.5), Qt::AlignLeft | Qt::AlignVCenter, title);
        p.setFont(base);
        // a lane whose time is beyond a number (an efficiency near zero) never finishes; the
        // others are drawn against the slowest lane that does (issue #20: NaN widths)
        const auto finite = [](double seconds) { return std::isfinite(seconds) && seconds > 0; };
        const double slowest = std::max(
            {finite(cpuSeconds) ? cpuSeconds : 0.0, finite(accSeconds) ? accSeconds : 0.0, 1e-300});
        struct Lane
        {
            QString name;
            double seconds;
            double rate;
            core::Bound bound;
            double peak;
            double bandwidth;
            QColor colour;
            bool cpu;
        };
        const Lane both[] = {{fromStd(m_race.cpu.device), cpuSeconds, cpuRate, cpuBound,
                              m_race.cpu.peakFlops, m_race.cpu.bandwidth, style::grey(120), true},
                             {fromStd(m_race.accelerator.device), accSeconds, accRate, accBound,
                              m_race.accelerator.peakFlops, m_race.accelerator.bandwidth,
                              style::kBlue, false}};
        for (int i = 0; i < 2; ++i) {
            const Lane &lane = both[i];
            const double y = top + line * 1.8 + i * line * 3.6;
            p.setPen(style::ink());
            // the device's name in its box: smaller when it would wrap past two lines (a narrow
            // window at presenter size drew "cores)" over the next lane)
            const QRectF nameBox(margin, y, labelWidth - line * 0.5, line * 2.4);
            QFont nameFont = bold;
            for (int shrink = 0; shrink < 4; ++shrink) {
                const QRectF needed = QFontMetricsF(nameFont).boundingRect(
                    nameBox, Qt::AlignLeft | Qt::TextWordWrap, lane.name);
                if (needed.height() <= nameBox.height())
                    break;
                nameFont = style::scaledFont(nameFont, 0.88);
            }
            p.setFont(nameFont);
            p.drawText(nameBox, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, lane.name);
            p.setFont(base);
            // the track, and how far this lane has run: all lanes share one clock
            const QRectF track(margin + labelWidth, y + line * 0.2, barWidth, line * 1.2);
            p.setPen(QPen(style::grey(220), 1));
            p.setBrush(style::grey(248));
            p.drawRect(track);
            const bool endless = !finite(lane.seconds);
            const double clock = m_progress * slowest;
            const double done = endless ? m_progress : std::min(1.0, clock / lane.seconds);
            const double length =
                endless ? track.width() * done : track.width() * (lane.seconds / slowest) * done;
            QColor fill = lane.colour;
            fill.setAlphaF(0.65);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawRect(QRectF(track.left(), track.top(), length, track.height()));
            const bool finished = !endless && done >= 1.0;
            const QString timeText = endless    ? tr("never finishes: n/a at this efficiency")
                                     : finished ? fromStd(core::formatSeconds(lane.seconds))
                                                : tr("running...");
            p.setPen(style::ink());
            const double textX = track.left() + length + 6;
            const double textW = metrics.horizontalAdvance(timeText) + 8;
            p.drawText(
                QRectF(std::min(textX, track.right() - textW), track.top(), textW, track.height()),
                Qt::AlignLeft | Qt::AlignVCenter, timeText);
            const QString limit =
                lane.bound == core::Bound::Memory
                    ? (lane.cpu ? tr("limited by DIMM bandwidth, %1")
                                : tr("limited by HBM bandwidth, %1"))
                          .arg(fromStd(core::formatBandwidth(lane.bandwidth)))
                    : (lane.cpu ? tr("limited by a few dozen wide cores, %1 peak")
                                : tr("limited by thousands of matrix lanes, %1 peak"))
                          .arg(fromStd(core::formatFlopRate(lane.peak)));
            p.setPen(style::grey(80));
            p.drawText(QRectF(track.left(), track.bottom() + 2, track.width(), line * 1.2),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       tr("%1 reached; %2").arg(fromStd(core::formatFlopRate(lane.rate)), limit));
        }
        p.setPen(style::kBlue.darker(120));
        p.setFont(bold);
        // beside the title; shorter where the two would meet ("2.17x faster")
        const double room =
            margin + w - (margin + QFontMetricsF(big).horizontalAdvance(title) + line);
        const bool finished = std::isfinite(speedup) && speedup > 0;
        QString verdict = finished
                              ? tr("the accelerator is %1x faster").arg(style::number(speedup, 3))
                              : tr("no comparison: a time beyond a number");
        if (finished && QFontMetricsF(bold).horizontalAdvance(verdict) > room)
            verdict = tr("%1x faster").arg(style::number(speedup, 3));
        p.drawText(QRectF(margin + labelWidth, top, barWidth, line * 1.5),
                   Qt::AlignRight | Qt::AlignVCenter, m_progress < 1.0 ? QString() : verdict);
    };
    const double sectionHeight = line * 9.5;
    lanes(margin,
          m_batch == 1
              ? tr("One layer's matrix multiplication, 1 row")
              : tr("One layer's matrix multiplication, %1 rows").arg(style::number(m_batch, 9)),
          m_race.cpu.matmulSeconds, m_race.accelerator.matmulSeconds,
          m_race.cpu.matmulFlopsPerSecond, m_race.accelerator.matmulFlopsPerSecond,
          m_race.cpu.matmulBound, m_race.accelerator.matmulBound, m_race.matmulSpeedup);
    lanes(margin + sectionHeight,
          tr("One decode step of the whole model, batch %1").arg(style::number(m_batch, 9)),
          m_race.cpu.decodeSeconds, m_race.accelerator.decodeSeconds,
          m_race.cpu.decodeFlopsPerSecond, m_race.accelerator.decodeFlopsPerSecond,
          m_race.cpu.decodeBound, m_race.accelerator.decodeBound, m_race.decodeSpeedup);
    p.setFont(base);
    p.setPen(style::grey(90));
    p.drawText(QRectF(margin, margin + 2 * sectionHeight, w, line * 3),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("Each lane is the lesson's toy: max(bytes / bandwidth, FLOP / peak), perfect "
                  "use of both. With one row the reuse is absent and both wait for memory; with "
                  "many rows the accelerator's matrix lanes pull away (l.11)."));
}

QWidget *RaceView::figureWidget()
{
    return m_canvas;
}

} // namespace views
