// Helpers for the scenario tests: an input row or option of a resolved scenario by its names.
#pragma once

#include <stdexcept>
#include <string>

#include "scenarios/resolved.hpp"

namespace gputco::test {

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
