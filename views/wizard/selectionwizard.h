// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The device-selection wizard (lesson l.204-237): regime, workload, candidates, the checks table
// and the decision, on a working copy of the scenario. Finishing applies the workload and the
// recommended device and format to the scenario as one undo step; cancelling changes nothing.

#include <QWizard>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace views {

class ScenarioDocument;

class SelectionWizard : public QWizard
{
    Q_OBJECT

public:
    enum Page { RegimePage, WorkloadPage, CandidatesPage, ChecksPage, DecisionPage };

    explicit SelectionWizard(ScenarioDocument *target, QWidget *parent = nullptr);

    /** The working copy the pages edit (for tests). */
    ScenarioDocument *working() const { return m_working; }
    /** The last refusal shown on the workload page, or empty. */
    QString lastRefusal() const;

    /** Adds a device that is no preset to the candidates (what the dialog does). */
    void addCustomDevice(const QString &name, double memoryGb, double bandwidth, double bf16Tflops,
                         double pricePerHour);
    /** Imports a Hugging Face config.json as the workload's model; false (and the reason shown
     *  on the page) when it is refused. */
    bool importModel(const QString &configPath);
    /** Types a price per hour for a candidate, as a user would in its cell. */
    void setCandidatePrice(const QString &id, double pricePerHour);

    void accept() override;
    /** The candidates follow the working copy's model when the page is shown. */
    void initializePage(int id) override;

private:
    QWizardPage *createRegimePage();
    QWizardPage *createWorkloadPage();
    QWizardPage *createCandidatesPage();
    QWizardPage *createChecksPage();
    QWizardPage *createDecisionPage();
    void addNumber(QFormLayout *form, const QString &path, double displayScale = 1.0);
    void setGeneratedTokens(double generated);
    void refreshEditors();
    void showSequencesInFlight();
    void applyCandidates();
    void fillCandidates();
    void addCustomDeviceWithDialog();

    ScenarioDocument *m_target;
    ScenarioDocument *m_working;
    QButtonGroup *m_regime = nullptr;
    QList<QCheckBox *> m_formats;
    QCheckBox *m_onPremises = nullptr;
    QLabel *m_refusal = nullptr;
    QLabel *m_inFlight = nullptr;         ///< Little's law from the traffic, in words
    QPushButton *m_useInFlight = nullptr; ///< sets the concurrent sequences to it
    QLineEdit *m_filter = nullptr;
    QComboBox *m_model = nullptr;
    QTableWidget *m_candidates = nullptr;
    QHash<QString, QWidget *> m_editors;
    QHash<QString, double> m_scales;
    bool m_updating = false;
};

} // namespace views
