// SPDX-License-Identifier: GPL-3.0-or-later
#include "explanationpanel.h"

#include "views/document/scenariodocument.h"

#include "views/widgets/style.h"

#include "core/physics/explain.h"

#include <algorithm>

namespace views {

ExplanationPanel::ExplanationPanel(ScenarioDocument *document, QWidget *parent)
    : QTextBrowser(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("explanationPanel"));
    setOpenLinks(false);
    setMinimumHeight(90);
    connect(document, &ScenarioDocument::changed, this, &ExplanationPanel::refresh);
    refresh();
}

void ExplanationPanel::showFigure(core::FigureId id)
{
    if (id == m_id && !m_html.isEmpty())
        return;
    m_id = id;
    refresh();
}

void ExplanationPanel::refresh()
{
    const auto &info = core::figureInfo(m_id);
    const auto x =
        core::explain(m_document->scenario(), m_document->evaluation(), m_id, m_document->units());
    const QString label = QString::fromUtf8(info.label.data(), qsizetype(info.label.size()));
    if (!x) {
        setHtmlIfChanged(
            tr("<b>%1</b>: not applicable to this scenario.").arg(label.toHtmlEscaped()));
        return;
    }
    QString html = QStringLiteral("<div><b>%1</b> &nbsp; <code>%2</code></div>")
                       .arg(label.toHtmlEscaped(),
                            QString::fromUtf8(info.key.data(), qsizetype(info.key.size())));
    html += QStringLiteral("<div style=\"margin-top:4px\">%1</div>")
                .arg(QString::fromStdString(x->formula).toHtmlEscaped());
    // A number a class is predicting: the formula and the inputs stay (they are what the
    // prediction is made from), the arithmetic and any input computed from it do not.
    const auto computedFromConcealed = [this](const core::ExplainedInput &input) {
        static const std::string prefix = "computed: ";
        if (input.provenance.rfind(prefix, 0) != 0)
            return false;
        const core::FigureInfo *from = core::findFigure(input.provenance.substr(prefix.size()));
        return from && m_document->isConcealed(from->id);
    };
    const bool concealed = m_document->isConcealed(m_id) ||
                           std::any_of(x->inputs.begin(), x->inputs.end(), computedFromConcealed);
    html += QStringLiteral("<div style=\"margin-top:2px\"><b>%1</b></div>")
                .arg(concealed ? tr("= ? (predict it, then Reveal)")
                               : QString::fromStdString(x->substituted).toHtmlEscaped());
    if (!x->inputs.empty()) {
        QStringList inputs;
        for (const core::ExplainedInput &input : x->inputs)
            inputs << QStringLiteral("%1 = %2 <span style=\"color:#666\">(%3)</span>")
                          .arg(QString::fromStdString(input.name).toHtmlEscaped(),
                               computedFromConcealed(input)
                                   ? QStringLiteral("?")
                                   : QString::fromStdString(input.value).toHtmlEscaped(),
                               QString::fromStdString(input.provenance).toHtmlEscaped());
        html += QStringLiteral("<div style=\"margin-top:4px\">%1 %2</div>")
                    .arg(tr("Inputs:"), inputs.join(QStringLiteral("; ")));
    }
    if (!x->note.empty() && !concealed) // a note can cite the lesson's value
        html += QStringLiteral("<div style=\"margin-top:4px; color:#8a4b00\">%1</div>")
                    .arg(QString::fromStdString(x->note).toHtmlEscaped());
    setHtmlIfChanged(html);
}

void ExplanationPanel::setHtmlIfChanged(const QString &html)
{
    if (html == m_html)
        return;
    m_html = html;
    setHtml(style::themed(html));
}

} // namespace views
