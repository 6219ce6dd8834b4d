#pragma once

// The device-selection wizard (lesson l.204-237): regime, workload, candidates, the checks table
// and the decision, on a working copy of the scenario. Finishing applies the workload and the
// recommended device and format to the scenario as one undo step; cancelling changes nothing.

#include <QWizard>

class QButtonGroup;
class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;

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

    void accept() override;

private:
    QWizardPage *createRegimePage();
    QWizardPage *createWorkloadPage();
    QWizardPage *createCandidatesPage();
    QWizardPage *createChecksPage();
    QWizardPage *createDecisionPage();
    void addNumber(QFormLayout *form, const QString &path, double displayScale = 1.0);
    void setGeneratedTokens(double generated);
    void refreshEditors();
    void applyCandidates();

    ScenarioDocument *m_target;
    ScenarioDocument *m_working;
    QButtonGroup *m_regime = nullptr;
    QList<QCheckBox *> m_formats;
    QCheckBox *m_onPremises = nullptr;
    QLabel *m_refusal = nullptr;
    QLineEdit *m_filter = nullptr;
    QListWidget *m_candidates = nullptr;
    QHash<QString, QWidget *> m_editors;
    QHash<QString, double> m_scales;
    bool m_updating = false;
};

} // namespace views
