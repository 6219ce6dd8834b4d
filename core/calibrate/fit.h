// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Weighted linear least squares with bounds on the coefficients: the solver calibration uses to
// fit bandwidth and compute efficiencies and a per-step overhead to measured runs. Minimises
// sum_i w_i (A_i . x - b_i)^2 subject to lower_j <= x_j <= upper_j, by an active set over
// column-pivoting Householder QR solves (Eigen, kept inside fit.cpp). Small problems: a handful
// of coefficients, up to thousands of rows.

#include "core/model/result.h"

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace core {

struct LinearFitProblem
{
    std::size_t columns = 0;
    std::vector<double> design;     ///< rows x columns, row-major
    std::vector<double> targets;    ///< one per row
    std::vector<double> weights;    ///< one per row, > 0; empty: all 1
    std::vector<double> lower;      ///< one per column; empty: unbounded below
    std::vector<double> upper;      ///< one per column; empty: unbounded above
    std::vector<std::string> names; ///< one per column, for messages; empty: "coefficient N"

    std::size_t rows() const { return columns == 0 ? 0 : targets.size(); }
};

struct LinearFit
{
    std::vector<double> coefficients;
    std::vector<bool> atBound;       ///< held at a bound by the constraints
    std::vector<double> residuals;   ///< A x - b, per row (unweighted)
    double weightedSquaredError = 0; ///< sum w r^2
    int iterations = 0;
};

/** The bounded fit. Fails, naming the column, when the problem is malformed (sizes, non-finite
 *  numbers, a weight <= 0, lower > upper) or when the data cannot determine a coefficient that
 *  is not held at a bound (a column that is zero or a combination of the others: say which
 *  measurement would separate them). */
[[nodiscard]] Result<LinearFit> fitLinearLeastSquares(const LinearFitProblem &problem);

} // namespace core
