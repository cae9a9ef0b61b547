// `gputco diff` as text (a terminal), JSON (machines) and Markdown (a pull request, an e-mail):
// what changed in the inputs, each option's total cost, NPV and cost per million tokens, and
// the recommendation, the way Infracost shows a cloud bill's change.
#pragma once

#include <string>
#include <vector>

#include "engine/plan/plan_diff.hpp"

namespace gputco {

/// Why the two plans' totals may not compare like for like (issue #37), one sentence each:
/// horizons that differ (a 48-month total is a third more than a 36-month one at the same
/// monthly cost) and first months that differ (trends and discounting start elsewhere);
/// currencies that differ are refused by diff_plans before. Empty when none. Every format prints
/// them first.
std::vector<std::string> comparability_warnings(const PlanDiff& diff);

/// The diff for a terminal: the two plans (file, name, currency, horizon, as-of date), the
/// recommendation (and whether it moved), each option with its total cost and NPV before ->
/// after and the change (+/- amount and percent; "~" changed, "+" added, "-" removed, "="
/// unchanged), then every input that changed (before -> after, with its unit). Amounts whole,
/// in the plans' currency. Throws nothing.
std::string diff_text(const PlanDiff& diff);

/// The diff as JSON: { old: {source, scenario, currency, horizon_months, as_of, start,
/// recommendation}, new: {...}, warnings: [comparability_warnings], recommendation: {old, new,
/// changed}, options: [{change, id, label, total_cost: {old, new, delta, relative}, npv: {...},
/// cost_per_million_tokens:
/// {...}}], inputs: [{change, section, key, label, unit, old, new}] }; change is "unchanged",
/// "changed", "added" or "removed"; a figure that does not exist is null.
std::string diff_json(const PlanDiff& diff);

/// The diff as GitHub-flavoured Markdown: a heading, the recommendation, a table of the
/// options (total cost and NPV old -> new and the change), and the changed inputs in a
/// table inside <details>. '|' in names is escaped.
std::string diff_markdown(const PlanDiff& diff);

}  // namespace gputco
