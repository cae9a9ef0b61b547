#include "scenarios/cost_line_keys.hpp"

namespace gputco::scenario_detail {

/// The cost lines of an option (engine/finance/cost_lines.hpp): amounts in the plan currency.
void read_cost_lines(const SectionReader& r, ScenarioOption& o) {
  r.number("staff_hours_per_month", o.staff_hours_per_month, 0, 1e6, "hours of staff time a month");
  r.money("staff_rate_per_hour", o.staff_rate_per_hour, kMaxAmountUsd, "a price per hour");
  r.number("staff_fte", o.staff_fte, 0, 1e4, "a share of full-time employees (0.25 for a quarter)");
  r.money("staff_salary_per_year", o.staff_salary_per_year, kMaxAmountUsd,
          "a yearly cost per full-time employee");
  r.money("licence_per_month", o.licence_per_month, kMaxAmountUsd, "a price per month");
  r.money("licence_per_year", o.licence_per_year, kMaxAmountUsd, "a price per year");
  r.money("licence_per_gpu_per_year", o.licence_per_gpu_per_year, kMaxAmountUsd,
          "a price per device per year");
  r.money("support_per_month", o.support_per_month, kMaxAmountUsd, "a price per month");
  r.money("support_per_year", o.support_per_year, kMaxAmountUsd, "a price per year");
  r.money("support_per_gpu_per_year", o.support_per_gpu_per_year, kMaxAmountUsd,
          "a price per device per year");
  r.number("insurance_per_year", o.insurance_per_year, 0, 1,
           "a fraction of the hardware's purchase value per year (0.01 for 1 %)");
  r.money("colo_extras_per_month", o.colo_extras_per_month, kMaxAmountUsd,
          "a price per unit per month");
}

}  // namespace gputco::scenario_detail
