// SPDX-License-Identifier: GPL-3.0-or-later
#include "layergroups.h"

#include "core/model/architecture.h"
#include "core/model/formats.h"
#include "core/model/units.h"

#include <QCoreApplication>
#include <QStringList>

namespace views {

QString layerGroupSummary(const core::Scenario &s, core::MemoryUnits units)
{
    const auto groups = core::sequenceCacheByGroup(s.model, core::nominalBytes(s.serving.kvFormat),
                                                   s.serving.contextTokens);
    if (groups.size() == 1 && groups.front().group.attention == core::AttentionKind::Full)
        return {};
    QStringList parts;
    for (const core::GroupCache &g : groups)
        parts << QCoreApplication::translate("views", "%1: %2")
                     .arg(QString::fromStdString(core::describeGroup(g.group)),
                          QString::fromStdString(core::formatBytes(g.bytes, units)));
    return QCoreApplication::translate("views", "KV per %1-token sequence by layer group: %2")
        .arg(QString::fromStdString(core::formatNumber(s.serving.contextTokens, 9)),
             parts.join(QStringLiteral(" + ")));
}

} // namespace views
