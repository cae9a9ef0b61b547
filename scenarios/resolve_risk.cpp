// [risk]: the Monte Carlo's model (engine RiskModel) from the scenario's ranges over the
// built-in symmetric defaults, each range the scenario sets listed as an input. The keys and
// the fields they set: scenarios/risk_keys.hpp's table.
#include <string>

#include "scenarios/resolver.hpp"
#include "scenarios/risk_keys.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_risk() {
  RiskModel& m = r_.risk_model;
  for (const RiskKey& k : risk_key_table()) {
    const std::string key = k.key;
    const auto given_range = s_.risk_inputs.find(key);
    if (given_range == s_.risk_inputs.end()) continue;
    UncertainInput& field = m.*(k.field);
    field = given_range->second;
    text("risk", key, "Monte Carlo range: " + key,
         risk_range_text(field, 1) + (key == "growth" ? " (absolute, a month)" : ""));
  }
  if (s_.risk_correlation) {
    m.purchase_rental_correlation = *s_.risk_correlation;
    number("risk", kRiskCorrelationKey, "Monte Carlo: correlation of purchase and rental prices",
           *s_.risk_correlation, "correlation");
  }
}

}  // namespace gputco::resolve_detail
