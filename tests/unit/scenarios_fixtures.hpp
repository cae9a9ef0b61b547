// Helpers for the scenario tests: a scenario from INI text, the error it gives, and an input
// row or option of a resolved scenario by its names.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "scenarios/resolved.hpp"
#include "scenarios/scenario.hpp"

namespace gputco::test {

/// The scenario of INI `text`, named "test.ini" in errors. Throws ScenarioError.
inline Scenario parse(const std::string& text) {
  std::istringstream in(text);
  return parse_scenario(in, ScenarioFormat::ini, "test.ini");
}

/// The ScenarioError message `text` gives, "" when it parses.
inline std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

/// The Inputs row of `section` and `key`, nullptr when there is none.
inline const InputRow* input(const ResolvedScenario& r, const std::string& section,
                             const std::string& key) {
  for (const auto& row : r.inputs) {
    if (row.section == section && row.key == key) return &row;
  }
  return nullptr;
}

/// The resolved option `id`; throws std::runtime_error when there is none.
inline const OptionInputs& option(const ResolvedScenario& r, const std::string& id) {
  for (const auto& o : r.plan_inputs.options) {
    if (o.id == id) return o;
  }
  throw std::runtime_error("no option " + id);
}

}  // namespace gputco::test
