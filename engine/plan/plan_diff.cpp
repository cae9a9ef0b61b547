#include "engine/plan/plan_diff.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"

namespace gputco {
namespace {

bool same_number(double a, double b, double relative) {
  return std::abs(a - b) <= relative * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

bool same_input(const SnapshotInput& a, const SnapshotInput& b) {
  if (a.value.has_value() != b.value.has_value()) return false;
  if (a.value) return same_number(*a.value, *b.value, 1e-12);
  return a.text == b.text;
}

bool same_figure(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || same_number(*a, *b, 1e-9);
}

const SnapshotInput* find_input(const PlanSnapshot& plan, const std::string& section,
                                const std::string& key) {
  for (const SnapshotInput& input : plan.inputs) {
    if (input.section == section && input.key == key) return &input;
  }
  return nullptr;
}

const SnapshotOption* find_option(const PlanSnapshot& plan, const std::string& id) {
  for (const SnapshotOption& option : plan.options) {
    if (option.id == id) return &option;
  }
  return nullptr;
}

PlanSnapshot heading(const PlanSnapshot& plan) {
  PlanSnapshot out = plan;
  out.inputs.clear();
  out.options.clear();
  return out;
}

}  // namespace

std::optional<double> FigureChange::delta() const {
  if (!before || !after) return std::nullopt;
  return *after - *before;
}

std::optional<double> FigureChange::relative() const {
  const auto d = delta();
  // A base that every report rounds to 0 (below half a currency unit) gives no percentage:
  // a total of 1e-320 gave "+inf %". An infinite change none either.
  if (!d || !std::isfinite(*d) || std::abs(*before) < 0.5) return std::nullopt;
  const double r = *d / std::abs(*before);
  if (!std::isfinite(r)) return std::nullopt;
  return r;
}

std::string PlanDiff::label_of(const std::string& id) const {
  for (const OptionChange& option : options) {
    if (option.id == id) return option.label;
  }
  return id;
}

PlanDiff diff_plans(const PlanSnapshot& before, const PlanSnapshot& after) {
  GPUTCO_REQUIRE(before.currency == after.currency, "the plans are in different currencies ("
                                                        << before.currency << " and "
                                                        << after.currency
                                                        << "): their amounts cannot be "
                                                           "compared; plan both in one");
  PlanDiff diff;
  diff.before_plan = heading(before);
  diff.after_plan = heading(after);
  diff.recommendation_before = before.recommendation;
  diff.recommendation_after = after.recommendation;

  for (const SnapshotInput& input : after.inputs) {
    const SnapshotInput* old = find_input(before, input.section, input.key);
    if (old != nullptr && same_input(*old, input)) continue;
    InputChange change;
    change.change = old == nullptr ? Change::added : Change::changed;
    change.section = input.section;
    change.key = input.key;
    change.label = input.label;
    change.unit = input.unit.empty() && old != nullptr ? old->unit : input.unit;
    if (old != nullptr) change.before = *old;
    change.after = input;
    diff.inputs.push_back(change);
  }
  for (const SnapshotInput& input : before.inputs) {
    if (find_input(after, input.section, input.key) != nullptr) continue;
    diff.inputs.push_back(
        {Change::removed, input.section, input.key, input.label, input.unit, input, {}});
  }

  const auto figures = [](OptionChange& change, const SnapshotOption* old,
                          const SnapshotOption* now) {
    if (old != nullptr) {
      change.total_cost.before = old->total_cost;
      change.npv.before = old->npv;
      change.cost_per_million_tokens.before = old->cost_per_million_tokens;
    }
    if (now != nullptr) {
      change.total_cost.after = now->total_cost;
      change.npv.after = now->npv;
      change.cost_per_million_tokens.after = now->cost_per_million_tokens;
    }
  };
  for (const SnapshotOption& option : after.options) {
    const SnapshotOption* old = find_option(before, option.id);
    OptionChange change;
    change.id = option.id;
    change.label = option.label.empty() ? option.id : option.label;
    figures(change, old, &option);
    if (old == nullptr) {
      change.change = Change::added;
    } else {
      const bool same = old->feasible == option.feasible &&
                        same_figure(old->total_cost, option.total_cost) &&
                        same_figure(old->npv, option.npv) &&
                        same_figure(old->cost_per_million_tokens, option.cost_per_million_tokens);
      change.change = same ? Change::unchanged : Change::changed;
    }
    diff.options.push_back(change);
  }
  for (const SnapshotOption& option : before.options) {
    if (find_option(after, option.id) != nullptr) continue;
    OptionChange change;
    change.change = Change::removed;
    change.id = option.id;
    change.label = option.label.empty() ? option.id : option.label;
    figures(change, &option, nullptr);
    diff.options.push_back(change);
  }
  return diff;
}

}  // namespace gputco
