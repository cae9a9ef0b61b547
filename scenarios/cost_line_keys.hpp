// The cost-line keys of an [option:ID] section (engine/finance/cost_lines.hpp): reading them and
// checking which kinds they apply to (internal to scenarios/).
#pragma once

#include <string>

#include "scenarios/scenario.hpp"
#include "scenarios/section_reader.hpp"

namespace gputco::scenario_detail {

/// The cost lines of an option (engine/finance/cost_lines.hpp): amounts in the plan currency.
void read_cost_lines(const SectionReader& r, ScenarioOption& o);

/// Which kinds each cost line applies to, and the staff pairs entered whole.
template <typename Given>
void check_cost_line_kinds(const SectionReader& r, const ScenarioOption& o,
                           const std::string& base_kind, const Given& given) {
  if (given("insurance_per_year") && base_kind != "buy") {
    r.fail("insurance_per_year",
           "applies to owned hardware only (kind = buy, colocation or blend; this option is " +
               o.kind + ")");
  }
  if (given("colo_extras_per_month") && o.kind != "colocation" && o.hosting != "colocation") {
    r.fail("colo_extras_per_month",
           "applies to colocated hardware only: set kind = colocation (or hosting = colocation "
           "on a buy option)");
  }
  for (const char* key : {"licence_per_gpu_per_year", "support_per_gpu_per_year"}) {
    if (given(key) && o.kind == "api") {
      r.fail(key, "does not apply to kind = api (no devices of its own); use " +
                      std::string(key).substr(0, std::string(key).find("_per_gpu")) +
                      "_per_month or _per_year");
    }
  }
  if (o.staff_hours_per_month.has_value() != o.staff_rate_per_hour.has_value()) {
    r.fail(o.staff_hours_per_month ? "staff_rate_per_hour" : "staff_hours_per_month",
           "missing: staff time is staff_hours_per_month x staff_rate_per_hour; give both");
  }
  if (o.staff_fte.has_value() != o.staff_salary_per_year.has_value()) {
    r.fail(o.staff_fte ? "staff_salary_per_year" : "staff_fte",
           "missing: staff as a share of employees is staff_fte x staff_salary_per_year; give "
           "both");
  }
}

}  // namespace gputco::scenario_detail
