// Two plans side by side (gputco diff): what changed in the inputs and in each option's
// totals, NPV and cost per million tokens, and whether the recommendation moved. Pure: the
// plans come as snapshots (from a scenario planned now, or from a plan's JSON).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gputco {

/// One input of a plan, as the Inputs sheet and the plan's JSON list it.
struct SnapshotInput {
  std::string section;  ///< "scenario", "workload", "site" or an option id
  std::string key;
  std::string label;
  std::optional<double> value;  ///< numeric inputs
  std::string text;             ///< text inputs (ids, names) when value is empty
  std::string unit;
};

/// One option's figures that a comparison shows.
struct SnapshotOption {
  std::string id;
  std::string label;  ///< the name a person reads (the id when none)
  std::string kind;   ///< buy, rent_hourly, rent_monthly, api
  bool feasible = true;
  double total_cost = 0;
  double npv = 0;
  std::optional<double> cost_per_million_tokens;
};

/// What a comparison needs of one plan.
struct PlanSnapshot {
  std::string source;  ///< the file it came from, for the headings
  std::string name;    ///< the scenario's name
  std::string currency;
  int horizon_months = 0;
  std::string as_of;
  std::optional<std::string> recommendation;  ///< an option id
  std::vector<SnapshotInput> inputs;
  std::vector<SnapshotOption> options;
  std::string start;  ///< the first month, YYYY-MM ("" when the plan's JSON has none)
};

enum class Change { unchanged, changed, added, removed };

/// An input that differs: its value before and after (one side empty when added or removed).
struct InputChange {
  Change change = Change::changed;
  std::string section;
  std::string key;
  std::string label;
  std::string unit;
  std::optional<SnapshotInput> before;
  std::optional<SnapshotInput> after;
};

/// A figure before and after; the difference when both exist.
struct FigureChange {
  std::optional<double> before;
  std::optional<double> after;
  /// after - before when both exist.
  std::optional<double> delta() const;
  /// delta / |before| when both exist, |before| is at least half a currency unit (a base the
  /// reports round to 0 gives no percentage) and the quotient is finite; nullopt otherwise.
  std::optional<double> relative() const;
};

/// One option in both plans, or in one of them.
struct OptionChange {
  Change change = Change::unchanged;  ///< changed: any figure moved (beyond rounding)
  std::string id;
  std::string label;
  FigureChange total_cost;
  FigureChange npv;
  FigureChange cost_per_million_tokens;
};

struct PlanDiff {
  PlanSnapshot before_plan;  ///< heading facts of each side (inputs and options emptied)
  PlanSnapshot after_plan;
  std::vector<InputChange> inputs;    ///< only inputs that differ, in the after plan's order
  std::vector<OptionChange> options;  ///< every option: the after plan's order, then removed
  std::optional<std::string> recommendation_before;
  std::optional<std::string> recommendation_after;
  bool recommendation_changed() const { return recommendation_before != recommendation_after; }
  /// The after plan's label of an option id (else the before plan's, else the id).
  std::string label_of(const std::string& id) const;
};

/// Compares two plans. Inputs are matched by (section, key): a number differs beyond a
/// relative 1e-12, a text differs at all; options by id, an option is "changed" when its
/// total, NPV, cost per million tokens or feasibility moved (totals by more than 1e-9 of
/// their size). Throws EngineError when the plans' currencies differ (their amounts cannot
/// be compared).
PlanDiff diff_plans(const PlanSnapshot& before, const PlanSnapshot& after);

}  // namespace gputco
