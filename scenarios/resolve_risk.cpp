// [risk]: the Monte Carlo's model (engine RiskModel) from the scenario's ranges over the
// built-in symmetric defaults, each range the scenario sets listed as an input. The keys and
// the fields they set: scenarios/risk_keys.hpp's table; the exchange rates (fx.CODE) apart,
// once the options' conversions are known.
#include <string>

#include "scenarios/currencies.hpp"

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
    // A demand draw multiplies the tokens (and requests) per day: without them, as with a
    // currency nothing is converted from, a range would be listed as varied and move nothing.
    if (key == "demand" && varies(field) && !r_.plan_inputs.workload.tokens_per_day) {
      fail("risk", key,
           "the workload states no demand in tokens (tokens_per_day, or requests_per_day with "
           "output_tokens_per_request): the draws would move nothing (its load is its "
           "concurrent_streams); state the demand, or write demand = fixed");
    }
    text("risk", key, "Monte Carlo range: " + key,
         risk_range_text(field, 1) + (key == "growth" ? " (absolute, a month)" : ""));
  }
  if (s_.risk_correlation) {
    m.purchase_rental_correlation = *s_.risk_correlation;
    number("risk", kRiskCorrelationKey, "Monte Carlo: correlation of purchase and rental prices",
           *s_.risk_correlation, "correlation");
  }
}

void Resolver::resolve_risk_fx() {
  RiskModel& m = r_.risk_model;
  const std::string prefix = kRiskFxPrefix;
  for (const auto& [key, range] : s_.risk_inputs) {
    if (key.rfind(prefix, 0) != 0) continue;
    const std::string code = key.substr(prefix.size());
    if (converted_currencies_.count(code) == 0) {
      std::string converted;
      for (const auto& c : converted_currencies_) {
        converted += (converted.empty() ? "" : ", ") + prefix + c;
      }
      fail("risk", key,
           (code == s_.currency ? code + " is the plan currency: no amount is converted from it"
                                : "no amount of this plan is converted from " + code) +
               " (the draws would move nothing); " +
               (converted.empty() ? "this plan converts no amount from another currency"
                                  : "its converted currencies: " + converted));
    }
    m.fx[code] = range;
    text("risk", key, "Monte Carlo range: exchange rate " + s_.currency + " per " + code,
         risk_range_text(range, 1));
  }
  // Every currency converted from is listed, not varied unless [risk] says so: the reports
  // show that the exchange rate was held.
  for (const auto& code : converted_currencies_) m.fx.try_emplace(code);
}

}  // namespace gputco::resolve_detail
