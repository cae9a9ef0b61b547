// The last guard before any report: every figure the engine hands on is a finite number.
#pragma once

#include <stdexcept>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"

namespace gputco {

/// A figure the engine computed is not a finite number (NaN or an infinity): a combination of
/// inputs that no check foresaw, or a defect. No report may show it (as "nan", "inf", a JSON
/// null or a spreadsheet error): the CLI maps this to exit code 1 (a runtime failure, not
/// bad input). what() names the figure: "option rig: cash flow row financing, month 3 is
/// -nan; no report is written".
class FigureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws FigureError naming the first figure of `plan` that is NaN or infinite: the
/// timeline rows, every option's scalar figures, its figures that are set (optional ones),
/// its annual costs, every cash-flow row month by month, its fit and speed figures.
/// make_plan calls it on every plan it returns.
void check_finite_figures(const Plan& plan);

/// The same for a Monte Carlo's result (monte_carlo calls it) and for the tornado and
/// utilization sweep of a sensitivity run (analyse calls it).
void check_finite_figures(const RiskResult& risk);
void check_finite_figures(const Sensitivity& sensitivity);

}  // namespace gputco
