// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The scenario panel on the left: the inputs that matter most, always visible. Editors are
// generated from the core's parameter table (name, unit, range, help); an entry the core
// refuses is shown with its reason and changes nothing.

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QAbstractSpinBox;
class QFormLayout;

namespace views {

class ScenarioDocument;
class LogSliderControl;

class ScenarioPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    LogSliderControl *batchControl() const { return m_batch; }
    QComboBox *modelPicker() const { return m_model; }
    QComboBox *devicePicker() const { return m_device; }
    /** Speed of light / Typical / Calibrated. */
    QComboBox *estimatePicker() const { return m_estimate; }
    /** What the figures are ("typical: nvidia-a100-80gb-sxm, bandwidth 72 %, ..."). */
    QString estimateText() const;
    /** The editor of a numeric input, or nullptr. */
    QAbstractSpinBox *editor(const QString &path) const { return m_editors.value(path); }
    /** Lists the presets again (after the user's presets changed). */
    void reloadPresets();
    /** The message shown for the last refused entry (empty when none). */
    QString lastRefusal() const;
    /** What the panel says about a checkpoint's parts in their own formats; empty for one. */
    QString partFormatsText() const;
    /** The links to the inputs this panel has no room for ("traffic", "load", "engine"): one
     *  click opens View > All Inputs at that section. */
    QLabel *moreInputsLinks() const { return m_more; }

signals:
    /** A "more inputs" link: the All Inputs panel, found by `filter` ("traffic."). */
    void moreInputsRequested(const QString &filter);

private:
    void refresh();
    QAbstractSpinBox *addNumber(QFormLayout *form, const QString &path, double displayScale = 1.0);
    void fillPresets(QComboBox *combo, const char *kind);
    void showRefusal(const QString &message);

    ScenarioDocument *m_document;
    QComboBox *m_model;
    QComboBox *m_device;
    QComboBox *m_weightFormat;
    QComboBox *m_kvFormat;
    QLabel *m_partFormats; ///< a checkpoint's parts in their own formats, with "use one"
    QComboBox *m_estimate;
    QLabel *m_estimateNote;
    LogSliderControl *m_batch;
    LogSliderControl *m_context;
    QHash<QString, QAbstractSpinBox *> m_editors;
    QHash<QString, double> m_displayScale;
    QLabel *m_refusal;
    QLabel *m_more = nullptr;
    bool m_updating = false;
};

} // namespace views
