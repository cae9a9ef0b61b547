// A plan as `gputco diff` compares it: from a scenario planned now, or read back from the JSON
// that `gputco plan --json` wrote.
#pragma once

#include <stdexcept>
#include <string>

#include "engine/plan/plan.hpp"
#include "engine/plan/plan_diff.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// A file that should hold a plan's JSON does not: not JSON, or a field missing or of the
/// wrong type (what() names it).
class PlanJsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The snapshot of a plan and the scenario it came from; `source` names the file.
PlanSnapshot plan_snapshot(const Plan& plan, const ResolvedScenario& scenario,
                           const std::string& source);

/// True if `text` is a plan's JSON (an object with an "options" array and a "currency"), as
/// opposed to a scenario's (sections as objects). False for anything else, JSON or not.
bool is_plan_json(const std::string& text);

/// The snapshot of a plan's JSON (plan_json's format: scenario, currency, horizon_months,
/// as_of, recommendation, options[] with id, label, kind, fit.verdict, total_cost, npv,
/// cost_per_million_tokens, and inputs[]). A JSON written before labels and inputs existed
/// compares by ids and without inputs. Throws PlanJsonError naming the field.
PlanSnapshot plan_snapshot_from_json(const std::string& text, const std::string& source);

}  // namespace gputco
