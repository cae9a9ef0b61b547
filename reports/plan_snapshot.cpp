#include "reports/plan_snapshot.hpp"

#include <nlohmann/json.hpp>

namespace gputco {

PlanSnapshot plan_snapshot(const Plan& plan, const ResolvedScenario& scenario,
                           const std::string& source) {
  PlanSnapshot s;
  s.source = source;
  s.name = scenario.name;
  s.currency = plan.currency;
  s.horizon_months = plan.horizon_months;
  s.as_of = scenario.as_of;
  s.start = scenario.start;
  s.recommendation = plan.recommendation;
  for (const InputRow& row : scenario.inputs) {
    s.inputs.push_back({row.section, row.key, row.label, row.value, row.text, row.unit});
  }
  for (const OptionResult& option : plan.options) {
    s.options.push_back({option.id, option_label(scenario, option.id), to_string(option.kind),
                         option.feasible, option.total_cost, option.npv,
                         option.cost_per_million_tokens});
  }
  return s;
}

bool is_plan_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  return !j.is_discarded() && j.is_object() && j.contains("options") && j["options"].is_array() &&
         j.contains("currency");
}

namespace {

using nlohmann::json;

const json& field(const json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) {
    throw PlanJsonError(where + ": no field '" + key + "'");
  }
  return object.at(key);
}

std::string text_of(const json& object, const char* key, const std::string& where) {
  const json& value = field(object, key, where);
  if (!value.is_string()) throw PlanJsonError(where + "." + key + ": expected text");
  return value.get<std::string>();
}

double number_of(const json& object, const char* key, const std::string& where) {
  const json& value = field(object, key, where);
  if (!value.is_number()) throw PlanJsonError(where + "." + key + ": expected a number");
  return value.get<double>();
}

std::optional<double> optional_number(const json& object, const char* key,
                                      const std::string& where) {
  if (!object.contains(key) || object.at(key).is_null()) return std::nullopt;
  return number_of(object, key, where);
}

}  // namespace

PlanSnapshot plan_snapshot_from_json(const std::string& text, const std::string& source) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw PlanJsonError("not JSON");
  if (!j.is_object()) throw PlanJsonError("not a plan's JSON (expected an object)");
  PlanSnapshot s;
  s.source = source;
  s.name = text_of(j, "scenario", "the plan");
  s.currency = text_of(j, "currency", "the plan");
  s.horizon_months = static_cast<int>(number_of(j, "horizon_months", "the plan"));
  s.as_of = text_of(j, "as_of", "the plan");
  if (j.contains("start") && j.at("start").is_string()) s.start = j.at("start").get<std::string>();
  if (j.contains("recommendation") && !j.at("recommendation").is_null()) {
    s.recommendation = text_of(j, "recommendation", "the plan");
  }
  const json& options = field(j, "options", "the plan");
  if (!options.is_array()) throw PlanJsonError("the plan.options: expected an array");
  for (size_t i = 0; i < options.size(); ++i) {
    const json& o = options[i];
    const std::string where = "options[" + std::to_string(i) + "]";
    SnapshotOption option;
    option.id = text_of(o, "id", where);
    option.label = o.contains("label") ? text_of(o, "label", where) : option.id;
    option.kind = text_of(o, "kind", where);
    const std::string verdict = text_of(field(o, "fit", where), "verdict", where + ".fit");
    option.feasible = verdict != "does_not_fit";
    option.total_cost = number_of(o, "total_cost", where);
    option.npv = number_of(o, "npv", where);
    option.cost_per_million_tokens = optional_number(o, "cost_per_million_tokens", where);
    s.options.push_back(option);
  }
  if (j.contains("inputs")) {
    const json& inputs = j.at("inputs");
    if (!inputs.is_array()) throw PlanJsonError("the plan.inputs: expected an array");
    for (size_t i = 0; i < inputs.size(); ++i) {
      const json& row = inputs[i];
      const std::string where = "inputs[" + std::to_string(i) + "]";
      SnapshotInput input;
      input.section = text_of(row, "section", where);
      input.key = text_of(row, "key", where);
      input.label = row.contains("label") ? text_of(row, "label", where) : input.key;
      input.value = optional_number(row, "value", where);
      input.text = row.contains("text") ? text_of(row, "text", where) : "";
      input.unit = row.contains("unit") ? text_of(row, "unit", where) : "";
      s.inputs.push_back(input);
    }
  }
  return s;
}

}  // namespace gputco
