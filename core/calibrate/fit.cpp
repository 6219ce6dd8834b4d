// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibrate/fit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <optional>

namespace core {

namespace {

enum class State { Free, AtLower, AtUpper };

std::string nameOf(const LinearFitProblem &p, std::size_t column)
{
    return column < p.names.size() ? p.names[column] : "coefficient " + std::to_string(column + 1);
}

std::optional<Diagnostic> malformed(const LinearFitProblem &p)
{
    const std::size_t n = p.columns;
    if (n == 0)
        return Diagnostic{"/columns", "a fit needs at least one coefficient"};
    if (p.targets.empty())
        return Diagnostic{"/targets", "a fit needs at least one measurement"};
    if (p.design.size() != p.targets.size() * n)
        return Diagnostic{"/design", "the design has " + std::to_string(p.design.size()) +
                                         " numbers; rows x columns is " +
                                         std::to_string(p.targets.size() * n)};
    if (!p.weights.empty() && p.weights.size() != p.targets.size())
        return Diagnostic{"/weights", "one weight per measurement"};
    if ((!p.lower.empty() && p.lower.size() != n) || (!p.upper.empty() && p.upper.size() != n))
        return Diagnostic{"/bounds", "one bound per coefficient"};
    for (double v : p.design)
        if (!std::isfinite(v))
            return Diagnostic{"/design", "a number in the design is not finite"};
    for (double v : p.targets)
        if (!std::isfinite(v))
            return Diagnostic{"/targets", "a measurement is not finite"};
    for (double w : p.weights)
        if (!(w > 0) || !std::isfinite(w))
            return Diagnostic{"/weights", "every weight must be above 0 and finite"};
    for (std::size_t j = 0; j < n; ++j) {
        const double lo = p.lower.empty() ? -INFINITY : p.lower[j];
        const double hi = p.upper.empty() ? INFINITY : p.upper[j];
        if (std::isnan(lo) || std::isnan(hi) || lo > hi)
            return Diagnostic{"/bounds/" + std::to_string(j),
                              nameOf(p, j) + ": the lower bound is above the upper one"};
    }
    return std::nullopt;
}

} // namespace

Result<LinearFit> fitLinearLeastSquares(const LinearFitProblem &p)
{
    if (auto problem = malformed(p))
        return *problem;
    const Eigen::Index rows = Eigen::Index(p.targets.size());
    const Eigen::Index n = Eigen::Index(p.columns);
    // Rows scaled by the square root of their weight: ordinary least squares on the result.
    Eigen::MatrixXd a(rows, n);
    Eigen::VectorXd b(rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double root =
            p.weights.empty() ? 1.0 : std::sqrt(p.weights[static_cast<std::size_t>(i)]);
        for (Eigen::Index j = 0; j < n; ++j)
            a(i, j) = root * p.design[static_cast<std::size_t>(i * n + j)];
        b(i) = root * p.targets[static_cast<std::size_t>(i)];
    }
    Eigen::VectorXd lower(n);
    Eigen::VectorXd upper(n);
    for (Eigen::Index j = 0; j < n; ++j) {
        lower(j) = p.lower.empty() ? -INFINITY : p.lower[static_cast<std::size_t>(j)];
        upper(j) = p.upper.empty() ? INFINITY : p.upper[static_cast<std::size_t>(j)];
    }

    // An active set: start feasible (0 moved into the bounds), solve for the free coefficients,
    // step towards that solution only as far as the bounds allow and hold any coefficient that
    // reaches one; once the free solution is feasible, release a held coefficient whose
    // gradient points back into the box. Converges in a few passes for a handful of columns.
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n).cwiseMax(lower).cwiseMin(upper);
    std::vector<State> state(static_cast<std::size_t>(n), State::Free);
    for (Eigen::Index j = 0; j < n; ++j) // a coefficient pinned by equal bounds is no unknown
        if (lower(j) == upper(j))
            state[static_cast<std::size_t>(j)] = State::AtLower;
    const double scale = (a.transpose() * b).cwiseAbs().maxCoeff() + 1.0;
    const double gradientTolerance = 1e-10 * scale;
    LinearFit fit;
    const int maxIterations = 10 * int(n) + 20;
    for (fit.iterations = 1; fit.iterations <= maxIterations; ++fit.iterations) {
        std::vector<Eigen::Index> free;
        for (Eigen::Index j = 0; j < n; ++j)
            if (state[static_cast<std::size_t>(j)] == State::Free)
                free.push_back(j);
        Eigen::VectorXd z = x;
        if (!free.empty()) {
            Eigen::MatrixXd af(rows, Eigen::Index(free.size()));
            Eigen::VectorXd rhs = b;
            for (Eigen::Index k = 0; k < Eigen::Index(free.size()); ++k)
                af.col(k) = a.col(free[static_cast<std::size_t>(k)]);
            for (Eigen::Index j = 0; j < n; ++j)
                if (state[static_cast<std::size_t>(j)] != State::Free)
                    rhs -= a.col(j) * x(j);
            Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(af);
            if (qr.rank() < af.cols()) {
                const Eigen::Index lost = qr.colsPermutation().indices()(qr.rank());
                const std::size_t column =
                    static_cast<std::size_t>(free[static_cast<std::size_t>(lost)]);
                return Diagnostic{"/design/" + std::to_string(column),
                                  "the measurements cannot determine " + nameOf(p, column) +
                                      ": it changes every prediction in step with the other "
                                      "coefficients; add a measurement where it alone changes "
                                      "(another batch, context or prompt length)"};
            }
            const Eigen::VectorXd solved = qr.solve(rhs);
            for (Eigen::Index k = 0; k < Eigen::Index(free.size()); ++k)
                z(free[static_cast<std::size_t>(k)]) = solved(k);
        }
        // the largest step from x towards z that stays inside the bounds
        double alpha = 1.0;
        for (Eigen::Index j : free) {
            if (z(j) < lower(j))
                alpha = std::min(alpha, (lower(j) - x(j)) / (z(j) - x(j)));
            else if (z(j) > upper(j))
                alpha = std::min(alpha, (upper(j) - x(j)) / (z(j) - x(j)));
        }
        alpha = std::clamp(alpha, 0.0, 1.0);
        x += alpha * (z - x);
        if (alpha < 1.0) {
            for (Eigen::Index j : free) { // hold what reached a bound
                const double span = std::max(1.0, std::fabs(x(j)));
                if (std::fabs(x(j) - lower(j)) <= 1e-12 * span) {
                    x(j) = lower(j);
                    state[static_cast<std::size_t>(j)] = State::AtLower;
                } else if (std::fabs(x(j) - upper(j)) <= 1e-12 * span) {
                    x(j) = upper(j);
                    state[static_cast<std::size_t>(j)] = State::AtUpper;
                }
            }
            continue;
        }
        // optimal on the free set: release the held coefficient that most wants to move back
        const Eigen::VectorXd gradient = a.transpose() * (a * x - b);
        Eigen::Index release = -1;
        double strongest = gradientTolerance;
        for (Eigen::Index j = 0; j < n; ++j) {
            const State s = state[static_cast<std::size_t>(j)];
            const double pull = s == State::AtLower   ? -gradient(j)
                                : s == State::AtUpper ? gradient(j)
                                                      : 0.0;
            if (pull > strongest && lower(j) != upper(j)) {
                strongest = pull;
                release = j;
            }
        }
        if (release < 0)
            break;
        state[static_cast<std::size_t>(release)] = State::Free;
    }
    fit.coefficients.assign(x.data(), x.data() + n);
    for (State s : state)
        fit.atBound.push_back(s != State::Free);
    fit.residuals.resize(p.targets.size());
    for (std::size_t i = 0; i < p.targets.size(); ++i) {
        double predicted = 0;
        for (std::size_t j = 0; j < p.columns; ++j)
            predicted += p.design[i * p.columns + j] * fit.coefficients[j];
        fit.residuals[i] = predicted - p.targets[i];
        fit.weightedSquaredError +=
            (p.weights.empty() ? 1.0 : p.weights[i]) * fit.residuals[i] * fit.residuals[i];
    }
    return fit;
}

} // namespace core
