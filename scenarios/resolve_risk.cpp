// [risk]: the Monte Carlo's model (engine RiskModel) from the scenario's ranges over the
// built-in symmetric defaults, each range the scenario sets listed as an input.
#include <string>

#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

namespace {

std::string percent_text(double fraction) {
  return fixed(fraction * 100, 1) + " %";
}

/// "uniform -20.0 % .. +20.0 %" style text of a range the scenario sets.
std::string range_text(const UncertainInput& in) {
  const auto signed_percent = [](double x) { return (x > 0 ? "+" : "") + percent_text(x); };
  switch (in.distribution) {
    case Distribution::uniform:
      if (in.low == 0 && in.high == 0) return "fixed (not varied)";
      return "uniform " + signed_percent(in.low) + " .. " + signed_percent(in.high);
    case Distribution::triangular:
      return "triangular " + signed_percent(in.low) + " / " + signed_percent(in.mode) + " / " +
             signed_percent(in.high);
    case Distribution::normal:
      return "normal, sd " + percent_text(in.sd);
  }
  return "";
}

}  // namespace

void Resolver::resolve_risk() {
  RiskModel& m = r_.risk_model;
  const std::pair<const char*, UncertainInput*> fields[] = {{"purchase_price", &m.purchase_price},
                                                            {"rental_rate", &m.rental_rate},
                                                            {"resale", &m.resale},
                                                            {"tariff", &m.tariff},
                                                            {"utilization", &m.hours_per_day},
                                                            {"maintenance", &m.maintenance},
                                                            {"failure_rate", &m.failure_rate},
                                                            {"demand", &m.demand},
                                                            {"growth", &m.growth}};
  for (const auto& [key, field] : fields) {
    const auto given_range = s_.risk_inputs.find(key);
    if (given_range == s_.risk_inputs.end()) continue;
    *field = given_range->second;
    text("risk", key, "Monte Carlo range: " + std::string(key),
         range_text(*field) + (std::string(key) == "growth" ? " (absolute, a month)" : ""));
  }
  if (s_.risk_correlation) {
    m.purchase_rental_correlation = *s_.risk_correlation;
    number("risk", "correlation_purchase_rental",
           "Monte Carlo: correlation of purchase and rental prices", *s_.risk_correlation,
           "correlation");
  }
}

}  // namespace gputco::resolve_detail
