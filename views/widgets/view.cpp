// SPDX-License-Identifier: GPL-3.0-or-later
#include "view.h"

#include "views/widgets/offscreen.h"

#include "views/document/dialogfolder.h"
#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/io/dataexport.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QSvgGenerator>

namespace views {

View::View(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    connect(document, &ScenarioDocument::changed, this, &View::onDocumentChanged);
    connect(document, &ScenarioDocument::selectionReady, this, &View::catchUp);
}

void View::onDocumentChanged(ScenarioDocument::Changes changes)
{
    if (!(changes & dependsOn()))
        return;
    m_dirty = true;
    if (isVisible())
        doRefresh();
}

void View::doRefresh()
{
    m_dirty = false;
    ++m_refreshCount;
    refresh();
}

void View::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty) // live: a result still on a worker shows when it arrives
        doRefresh();
}

void View::ensureCurrent()
{
    if (!m_dirty)
        return;
    m_mustComplete = true;
    doRefresh();
    m_mustComplete = false;
}

void View::catchUp()
{
    if (m_dirty && isVisible())
        doRefresh();
}

void View::render(QPainter &painter, const QRectF &target)
{
    ensureCurrent();
    painter.save();
    painter.translate(target.topLeft());
    const double sx = target.width() / std::max(1, width());
    const double sy = target.height() / std::max(1, height());
    painter.scale(sx, sy);
    QWidget::render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.restore();
}

namespace {

/** Plays `picture`, recorded at `source` size, scaled into `target`. */
void replay(QPainter &painter, const QPicture &picture, QSize source, const QRectF &target)
{
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip); // a drawing never spills onto its neighbours
    painter.translate(target.topLeft());
    // drawPicture() scales by the two devices' resolutions; undo that, keep the target's
    const double dpi = double(picture.logicalDpiX()) / painter.device()->logicalDpiX();
    painter.scale(dpi * target.width() / std::max(1, source.width()),
                  dpi * target.height() / std::max(1, source.height()));
    painter.drawPicture(0, 0, picture);
    painter.restore();
}

} // namespace

void View::renderRecorded(QPainter &painter, const QRectF &target)
{
    QPicture picture;
    QPainter recorder(&picture);
    render(recorder, QRectF(QPointF(), QSizeF(size())));
    recorder.end();
    replay(painter, picture, size(), target);
}

QWidget *View::figureWidget()
{
    QWidget *largest = this;
    int area = 0;
    for (QChartView *chart : findChildren<QChartView *>()) {
        if (!chart->isVisibleTo(this))
            continue;
        const int a = chart->width() * chart->height();
        if (a > area) {
            area = a;
            largest = chart;
        }
    }
    return largest;
}

void View::renderFigure(QPainter &painter, const QRectF &target, QSize chartSize)
{
    ensureCurrent();
    QWidget *figure = figureWidget();
    if (figure == this) {
        renderRecorded(painter, target);
        return;
    }
    if (auto *chartView = qobject_cast<QChartView *>(figure); chartView && chartSize.isValid()) {
        // the chart alone at the size asked for: its labels follow the new plot area
        QChart *chart = chartView->chart();
        // settling may finish work that lays the view out again (a load simulation coming in)
        // and the chart view then gives the chart its own size back: the report's load chart
        // was drawn at the view's size into a smaller box, its x axis and right side cut off
        for (int attempt = 0; attempt < 3; ++attempt) {
            chart->resize(QSizeF(chartSize));
            settleOffscreen();
            if (chart->size() == QSizeF(chartSize))
                break;
        }
        QPicture picture;
        QPainter recorder(&picture);
        chartView->scene()->render(&recorder, QRectF(QPointF(), QSizeF(chartSize)),
                                   QRectF(chart->pos(), QSizeF(chartSize)));
        recorder.end();
        replay(painter, picture, chartSize, target);
        return;
    }
    QPicture picture;
    QPainter recorder(&picture);
    figure->render(&recorder, QPoint(), QRegion(), QWidget::DrawChildren);
    recorder.end();
    replay(painter, picture, figure->size(), target);
}

bool View::exportTo(const QString &filePath, QString *error)
{
    const QString suffix = QFileInfo(filePath).suffix().toLower();
    const QSize size = this->size();
    if (suffix == QStringLiteral("svg")) {
        return writeAtomically(
            filePath,
            [&](QIODevice &device, QString *) {
                QSvgGenerator svg;
                svg.setOutputDevice(&device);
                svg.setSize(size);
                svg.setViewBox(QRect(QPoint(), size));
                svg.setTitle(title());
                svg.setDescription(QStringLiteral("%1; %2").arg(title(), exportStampText()));
                QPainter painter;
                if (!painter.begin(&svg))
                    return false;
                render(painter, QRectF(QPointF(), size));
                return painter.end();
            },
            error);
    }
    if (suffix == QStringLiteral("pdf")) {
        return writeAtomically(
            filePath,
            [&](QIODevice &device, QString *) {
                QPdfWriter pdf(&device);
                pdf.setTitle(title());
                pdf.setCreator(exportStampText());
                pdf.setResolution(72); // one PDF point per logical pixel: text keeps its size
                pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
                pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
                QPainter painter;
                if (!painter.begin(&pdf))
                    return false;
                render(painter, QRectF(QPointF(), size));
                return painter.end();
            },
            error);
    }
    if (suffix == QStringLiteral("png") || suffix == QStringLiteral("jpg") ||
        suffix == QStringLiteral("jpeg")) {
        const qreal ratio = 2.0; // crisp on high-DPI screens and in slides
        QImage image(size * ratio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(ratio);
        image.fill(palette().color(QPalette::Window));
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        render(painter, QRectF(QPointF(), size));
        painter.end();
        image.setText(QStringLiteral("Software"), exportStampText());
        image.setText(QStringLiteral("Title"), title());
        return writeImageAtomically(filePath, image, error);
    }
    if (error)
        *error = tr("%1: unknown format \"%2\" (png, svg or pdf)").arg(filePath, suffix);
    return false;
}

void View::copyImage()
{
    QImage image(size() * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(palette().color(QPalette::Window));
    QPainter painter(&image);
    render(painter, QRectF(QPointF(), size()));
    painter.end();
    QApplication::clipboard()->setImage(image);
}

void View::copyCsv()
{
    QApplication::clipboard()->setText(QStringLiteral("# %1\n").arg(exportStampText()) + csv());
}

void View::exportWithDialog(const QString &suffix)
{
    const QString filter = suffix.toUpper() + tr(" files (*.%1)").arg(suffix);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(title()),
        suggestedPath(document(), snapshotName() + QLatin1Char('.') + suffix), filter);
    rememberDialogFolder(path);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void View::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Export PNG..."), this, [this] { exportWithDialog(QStringLiteral("png")); });
    menu.addAction(tr("Export SVG..."), this, [this] { exportWithDialog(QStringLiteral("svg")); });
    menu.addAction(tr("Export PDF..."), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
    menu.addSeparator();
    menu.addAction(tr("Copy Image"), this, &View::copyImage);
    QAction *copyData = menu.addAction(tr("Copy Data as CSV"), this, &View::copyCsv);
    copyData->setEnabled(!csv().isEmpty());
    menu.exec(event->globalPos());
}

} // namespace views
