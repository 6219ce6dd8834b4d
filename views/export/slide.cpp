// SPDX-License-Identifier: GPL-3.0-or-later
#include "slide.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/io/dataexport.h"
#include "views/viewregistry.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"

#include "core/exports.h"
#include "core/scenario.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <memory>

namespace views {

namespace {

// The view is laid out at a desktop size and drawn 1.5x: slide text at projector size.
constexpr double kViewScale = 1.5;
constexpr int kMargin = 56;
constexpr int kTitleHeight = 120;
constexpr int kFooterHeight = 200;

QFont pixelFont(int pixels, bool bold = false)
{
    QFont font = QApplication::font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

void paintSlide(QPainter &p, View &view, const QString &title, const QString &subtitle,
                const std::vector<std::pair<std::string, std::string>> &assumptions)
{
    p.fillRect(QRect(0, 0, kSlideWidth, kSlideHeight), Qt::white);
    p.setPen(Qt::black);
    p.setFont(pixelFont(46, true));
    p.drawText(QRect(kMargin, 28, kSlideWidth - 2 * kMargin, 60), Qt::AlignLeft | Qt::AlignVCenter,
               title);
    p.setPen(QColor(80, 80, 80));
    p.setFont(pixelFont(24));
    p.drawText(QRect(kMargin, 86, kSlideWidth - 2 * kMargin, 34), Qt::AlignLeft | Qt::AlignVCenter,
               subtitle);

    const QRectF viewArea(kMargin, kTitleHeight + 8, kSlideWidth - 2 * kMargin,
                          kSlideHeight - kTitleHeight - kFooterHeight - 8);
    view.renderRecorded(p, viewArea);

    // the assumptions in three columns, label above value
    const int top = kSlideHeight - kFooterHeight + 14;
    p.setPen(QPen(QColor(200, 200, 200), 2));
    p.drawLine(kMargin, top - 8, kSlideWidth - kMargin, top - 8);
    const int columns = 3;
    const int columnWidth = (kSlideWidth - 2 * kMargin) / columns;
    const int rowHeight = 48;
    for (std::size_t i = 0; i < assumptions.size(); ++i) {
        const int column = int(i) % columns;
        const int row = int(i) / columns;
        const QRect cell(kMargin + column * columnWidth, top + row * rowHeight, columnWidth - 16,
                         rowHeight);
        p.setPen(QColor(90, 90, 90));
        p.setFont(pixelFont(17));
        p.drawText(cell.adjusted(0, 0, 0, -rowHeight / 2), Qt::AlignLeft | Qt::AlignBottom,
                   QString::fromStdString(assumptions[i].first));
        p.setPen(Qt::black);
        p.setFont(pixelFont(21, true));
        const QString value = QString::fromStdString(assumptions[i].second);
        p.drawText(cell.adjusted(0, rowHeight / 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                   QFontMetrics(p.font()).elidedText(value, Qt::ElideRight, cell.width()));
    }
    p.setPen(QColor(110, 110, 110));
    p.setFont(pixelFont(15));
    p.drawText(QRect(kMargin, kSlideHeight - 30, kSlideWidth - 2 * kMargin, 24),
               Qt::AlignRight | Qt::AlignVCenter,
               QObject::tr("%1. The lesson's toy model: rank options with it, then measure.")
                   .arg(exportStampText()));
}

} // namespace

bool writeSlide(const core::Scenario &scenario, core::MemoryUnits units, const QString &viewName,
                const QString &path, QString *error, const QString &title)
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const ViewEntry *entry = findView(viewName);
    if (!entry)
        return fail(QObject::tr("unknown view \"%1\"; valid views: %2")
                        .arg(viewName, viewNames().join(QStringLiteral(", "))));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") &&
        suffix != QStringLiteral("pdf"))
        return fail(QObject::tr("%1: a slide is .png, .svg or .pdf").arg(path));

    const PrintAppearance printable; // slides are on white, whatever the screen's theme
    ScenarioDocument document;
    document.reset(scenario);
    document.setUnits(units);
    document.flush();
    std::unique_ptr<View> view(entry->create(&document, nullptr));
    layOutOffscreen(*view,
                    QSize(int((kSlideWidth - 2 * kMargin) / kViewScale),
                          int((kSlideHeight - kTitleHeight - kFooterHeight - 8) / kViewScale)));

    const QString heading = title.isEmpty() ? view->title() : title;
    const QString subtitle = QString::fromStdString(
        scenario.name.empty() ? scenario.model.name + " on " + scenario.device.name
                              : scenario.name);
    const auto assumptions = core::keyAssumptions(scenario, units);

    if (suffix == QStringLiteral("png")) {
        QImage image(kSlideWidth, kSlideHeight, QImage::Format_ARGB32_Premultiplied);
        QPainter painter;
        if (!painter.begin(&image))
            return fail(QObject::tr("%1: cannot be drawn").arg(path));
        painter.setRenderHint(QPainter::Antialiasing);
        paintSlide(painter, *view, heading, subtitle, assumptions);
        painter.end();
        image.setText(QStringLiteral("Software"), exportStampText());
        image.setText(QStringLiteral("Title"), heading);
        return writeImageAtomically(path, image, error);
    }
    if (suffix == QStringLiteral("svg")) {
        return writeAtomically(
            path,
            [&](QIODevice &device, QString *) {
                QSvgGenerator svg;
                svg.setOutputDevice(&device);
                svg.setSize(QSize(kSlideWidth, kSlideHeight));
                svg.setViewBox(QRect(0, 0, kSlideWidth, kSlideHeight));
                svg.setTitle(heading);
                svg.setDescription(exportStampText());
                QPainter painter;
                if (!painter.begin(&svg))
                    return false;
                paintSlide(painter, *view, heading, subtitle, assumptions);
                return painter.end();
            },
            error);
    }
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *) {
            QPdfWriter pdf(&device);
            pdf.setTitle(heading);
            pdf.setCreator(exportStampText());
            pdf.setResolution(96);
            pdf.setPageSize(QPageSize(QSizeF(kSlideWidth * 72.0 / 96, kSlideHeight * 72.0 / 96),
                                      QPageSize::Point));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            paintSlide(painter, *view, heading, subtitle, assumptions);
            return painter.end();
        },
        error);
}

} // namespace views
