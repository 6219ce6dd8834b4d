// SPDX-License-Identifier: GPL-3.0-or-later
#include "matmulview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/inside.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QPainter>
#include <QPushButton>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

constexpr QSizeF kDesign{1000, 560};

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

MatmulView::MatmulView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new MatmulCanvas(this))
    , m_counters(new QTextBrowser(this))
    , m_play(new QPushButton(tr("Play"), this))
    , m_speed(new QComboBox(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("matmulView"));
    m_counters->setOpenLinks(false);
    m_counters->setMinimumWidth(250);
    // its text wraps; a table a pixel wider than the panel showed a scroll bar for nothing
    m_counters->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *stepButton = new QPushButton(tr("Step"), this);
    auto *restart = new QPushButton(tr("Restart"), this);
    m_speed->addItem(tr("Slow"), 2400);
    m_speed->addItem(tr("Normal"), 1400);
    m_speed->addItem(tr("Fast"), 600);
    m_speed->setCurrentIndex(1);
    m_speed->setToolTip(tr("Playing speed"));
    connect(m_play, &QPushButton::clicked, this, [this] { playing() ? pause() : play(); });
    connect(stepButton, &QPushButton::clicked, this, &MatmulView::stepForward);
    connect(restart, &QPushButton::clicked, this, [this] { setStep(1); });
    connect(m_speed, &QComboBox::activated, this,
            [this] { m_timer->setInterval(m_speed->currentData().toInt()); });
    m_timer->setInterval(m_speed->currentData().toInt());
    connect(m_timer, &QTimer::timeout, this, &MatmulView::stepForward);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_play);
    controls->addWidget(stepButton);
    controls->addWidget(restart);
    controls->addWidget(m_speed);
    controls->addStretch(1);
    auto *left = new QVBoxLayout;
    left->addWidget(m_canvas, 1);
    left->addLayout(controls);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 3);
    layout->addWidget(m_counters, 2);
}

bool MatmulView::playing() const
{
    return m_timer->isActive();
}

void MatmulView::play()
{
    m_timer->start();
    m_play->setText(tr("Pause"));
}

void MatmulView::pause()
{
    m_timer->stop();
    m_play->setText(tr("Play"));
}

void MatmulView::stepForward()
{
    setStep(m_step % core::kMatmulSteps + 1);
}

void MatmulView::setStep(int step)
{
    m_step = std::clamp(step, 1, core::kMatmulSteps);
    refresh();
}

QString MatmulView::counters() const
{
    return m_counters->toPlainText();
}

void MatmulView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::MemoryUnits units = document()->units();
    const core::MatmulCounters one = core::matmulCounters(s, 1);
    const core::MatmulCounters batch = core::matmulCounters(s, s.serving.batch);
    // which pass along the shared dimension the drawing shows: the second on a repeat
    const int kStep = m_step >= 6 ? 2 : 1;
    m_canvas->setStep(m_step, kStep, int(one.kSteps));
    const core::MatmulStepInfo &info = core::matmulStep(m_step);
    auto column = [&](const core::MatmulCounters &c) {
        return tr("<td align=\"right\">%1</td><td align=\"right\">%2</td><td "
                  "align=\"right\"><b>%3</b></td>")
            .arg(fromStd(core::formatFlops(c.flops)), fromStd(core::formatBytes(c.bytes, units)),
                 style::number(c.reusePerByte, 3));
    };
    QString html = tr("<h3>Step %1 of 7: %2</h3><p>%3</p>")
                       .arg(m_step)
                       .arg(fromView(info.title), fromView(info.text));
    html += tr("<p><b>One layer's matrix multiplication</b> of %1: [rows x %2] x [%2 x %3], "
               "%4 bytes per weight; tiles %5 wide, so steps 2 to 6 repeat %6 times.</p>")
                .arg(fromStd(s.model.name).toHtmlEscaped(), style::number(one.k, 9),
                     style::number(one.n, 9), style::number(one.bytesPerElement, 3),
                     style::number(one.tile, 9), style::number(one.kSteps, 9));
    html += tr("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th></th><th>FLOP</th><th>bytes "
               "from HBM</th><th>FLOP per byte</th></tr>"
               "<tr><td>one token (1 row)</td>%1</tr><tr><td>the batch (%2)</td>%3</tr>"
               "</table>")
                .arg(column(one),
                     batch.m == 1 ? tr("1 row") : tr("%1 rows").arg(style::number(batch.m, 9)),
                     column(batch));
    html += tr("<p>With one row every weight byte fetched from HBM feeds about one "
               "multiply-add: the reuse is almost absent and the matrix units wait for bytes. "
               "With %1 each byte feeds %2 FLOP (l.27). Change the batch (Up and Down, or "
               "the batch slider) to see it.</p>")
                .arg(batch.m == 1 ? tr("1 row") : tr("%1 rows").arg(style::number(batch.m, 9)),
                     style::number(batch.reusePerByte, 3));
    m_counters->setHtml(html);
}

QString MatmulView::csv() const
{
    const core::Scenario &s = document()->scenario();
    QStringList lines{QStringLiteral("rows,m,k,n,flops,bytes,flops_per_byte")};
    for (const double rows : {1.0, s.serving.batch}) {
        const core::MatmulCounters c = core::matmulCounters(s, rows);
        lines << QStringLiteral("%1,%2,%3,%4,%5,%6,%7")
                     .arg(rows)
                     .arg(c.m)
                     .arg(c.k)
                     .arg(c.n)
                     .arg(c.flops, 0, 'g', 12)
                     .arg(c.bytes, 0, 'g', 12)
                     .arg(c.reusePerByte, 0, 'g', 6);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// ---- the drawing -----------------------------------------------------------------------------

MatmulCanvas::MatmulCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(420, 260);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MatmulCanvas::setStep(int step, int kStep, int kSteps)
{
    m_step = step;
    m_kStep = kStep;
    m_kSteps = kSteps;
    update();
}

void MatmulCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    const double scale = std::min(width() / kDesign.width(), height() / kDesign.height());
    p.translate((width() - kDesign.width() * scale) / 2, (height() - kDesign.height() * scale) / 2);
    p.scale(scale, scale);
    const QFont font = style::drawingFont(16, scale);
    const QFont small = style::drawingFont(13, scale);
    const QColor memory = style::kOrange;
    const QColor arithmetic = style::kBlue;
    const QColor active = style::kVermillion;
    auto tint = [](QColor c, double a) {
        c.setAlphaF(a);
        return c;
    };
    auto box = [&](const QRectF &r, const QColor &c, bool on, const QString &title) {
        p.setPen(QPen(on ? active : c.darker(120), on ? 3.5 : 1.5));
        p.setBrush(tint(c, on ? 0.30 : 0.14));
        p.drawRoundedRect(r, 8, 8);
        p.setPen(style::ink());
        p.setFont(font);
        // a title that no longer fits on one line (a drawing shown small) takes two
        p.drawText(QRectF(r.left() + 10, r.top() + 4, r.width() - 20, r.height() - 8),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title);
    };
    auto arrow = [&](QPointF a, QPointF b, bool on) {
        p.setPen(QPen(on ? active : style::grey(170), on ? 4 : 2));
        p.drawLine(a, b);
        const QPointF d = (b - a) / std::hypot(b.x() - a.x(), b.y() - a.y());
        const QPointF n(-d.y(), d.x());
        p.drawLine(b, b - d * 12 + n * 7);
        p.drawLine(b, b - d * 12 - n * 7);
    };
    const int s = m_step;
    // HBM: activations A (rows x K), weights W (K x N), result C
    const QRectF hbm(20, 20, 440, 230);
    box(hbm, memory, s == 1 || s == 7, tr("HBM"));
    const QRectF a(40, 70, 170, 34);   // few rows, wide K
    const QRectF w(240, 60, 120, 150); // K x N
    const QRectF c(380, 70, 60, 34);
    p.setFont(small);
    p.setPen(QPen(style::grey(120), 1));
    p.setBrush(style::grey(250));
    for (const QRectF &r : {a, w, c})
        p.drawRect(r);
    p.setPen(style::ink());
    const int under = Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip;
    p.drawText(QRectF(a.left(), a.bottom() + 2, a.width(), 20), under, tr("activations A"));
    p.drawText(QRectF(w.left(), w.bottom() + 2, w.width(), 18), under, tr("weights W"));
    p.drawText(QRectF(c.left() - 10, c.bottom() + 2, c.width() + 20, 20), under, tr("result C"));
    // the tile along the shared dimension K this pass works on
    const double slice = 1.0 / std::max(4, std::min(m_kSteps, 8));
    const QRectF aTile(a.left() + a.width() * slice * (m_kStep - 1), a.top(), a.width() * slice,
                       a.height());
    const QRectF wTile(w.left(), w.top() + w.height() * slice * (m_kStep - 1), w.width() * 0.5,
                       w.height() * slice);
    const QRectF cTile(c.left(), c.top(), c.width() * 0.5, c.height());
    p.setPen(Qt::NoPen);
    p.setBrush(tint(active, s >= 2 && s <= 6 ? 0.55 : 0.2));
    p.drawRect(aTile);
    p.drawRect(wTile);
    p.setBrush(tint(active, s == 7 ? 0.6 : 0.1));
    p.drawRect(cTile);

    // on chip
    const QRectF die(500, 20, 480, 520);
    p.setPen(QPen(style::grey(140), 1.5, Qt::DashLine));
    p.setBrush(style::grey(247));
    p.drawRoundedRect(die, 10, 10);
    p.setPen(style::grey(100));
    p.setFont(small);
    p.drawText(QRectF(die.left() + 10, die.top() + 6, die.width() - 20, 20),
               Qt::AlignRight | Qt::AlignTop | Qt::TextDontClip, tr("on the compute die"));
    const QRectF sram(520, 60, 440, 90);
    box(sram, memory, s == 2 || s == 6, tr("On-chip SRAM"));
    const QRectF registers(520, 190, 200, 70);
    box(registers, arithmetic, s == 3, tr("Operand registers"));
    const QRectF mac(520, 290, 200, 110);
    box(mac, arithmetic, s == 4, tr("Matrix unit"));
    const QRectF accumulator(760, 290, 200, 110);
    box(accumulator, arithmetic, s == 5, tr("Accumulator"));
    const QRectF vector(760, 430, 200, 70);
    box(vector, arithmetic, s == 7, tr("Vector unit"));
    // tiles resident in SRAM from step 2
    if (s >= 2) {
        p.setPen(Qt::NoPen);
        p.setBrush(tint(active, 0.5));
        p.drawRect(QRectF(560, 100, 70, 30));
        p.drawRect(QRectF(650, 100, 40, 40));
        if (s == 6) { // the next tile arriving while this one computes
            p.setBrush(tint(active, 0.25));
            p.drawRect(QRectF(720, 100, 70, 30));
            p.drawRect(QRectF(810, 100, 40, 40));
        }
    }
    // the MAC grid
    p.setPen(QPen(arithmetic.darker(130), 1));
    p.setBrush(tint(arithmetic, s == 4 ? 0.55 : 0.25));
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 6; ++col)
            p.drawRect(QRectF(535 + col * 30, 330 + row * 22, 24, 16));
    }
    // arrows of data
    arrow(QPointF(hbm.right(), 110), QPointF(sram.left(), 110), s == 2 || s == 6);
    arrow(QPointF(600, sram.bottom()), QPointF(600, registers.top()), s == 3);
    arrow(QPointF(600, registers.bottom()), QPointF(600, mac.top()), s == 4);
    arrow(QPointF(mac.right(), 345), QPointF(accumulator.left(), 345), s == 4 || s == 5);
    arrow(QPointF(860, accumulator.bottom()), QPointF(860, vector.top()), s == 7);
    // the result goes back to HBM below the units, not across them
    p.setPen(QPen(s == 7 ? active : style::grey(170), s == 7 ? 4 : 2));
    p.drawPolyline(QPolygonF({QPointF(860, vector.bottom()), QPointF(860, 522), QPointF(480, 522),
                              QPointF(480, hbm.bottom() + 30)}));
    arrow(QPointF(480, hbm.bottom() + 30), QPointF(480, hbm.bottom() + 2), s == 7);

    // the step, large, for the back of the room
    p.setPen(style::ink());
    QFont big = style::drawingFont(22, scale);
    big.setBold(true);
    p.setFont(big);
    p.drawText(QRectF(20, 270, 460, 40), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Step %1 of 7").arg(s));
    p.setFont(font);
    p.drawText(QRectF(20, 310, 460, 60), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               fromView(core::matmulStep(s).title));
    p.setFont(small);
    p.setPen(style::grey(90));
    p.drawText(QRectF(20, 380, 460, 150), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               s >= 2 && s <= 6
                   ? tr("Pass %1 of %2 along the shared dimension: steps 2 to 6 repeat until it "
                        "is done, the accumulator holding the partial sums on chip.")
                         .arg(m_kStep)
                         .arg(m_kSteps)
                   : tr("Bytes from HBM are reused across many multiply-adds: that is the whole "
                        "trick of tiling (l.27)."));
}

QWidget *MatmulView::figureWidget()
{
    return m_canvas;
}

} // namespace views
