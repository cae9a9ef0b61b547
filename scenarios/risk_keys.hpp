// The `[risk]` section: the uncertain inputs of the Monte Carlo, each with its distribution and
// range as the user believes them (README "Uncertainty: the [risk] section"). Internal to
// scenarios/: scenario.cpp reads the section, resolve_risk.cpp turns it into a RiskModel.
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco::scenario_detail {

/// The keys of `[risk]`, in the order the README lists them: purchase_price, rental_rate,
/// resale, tariff, utilization, maintenance, failure_rate, demand, growth (each a
/// distribution) and correlation_purchase_rental (a number in -1..1).
const std::vector<std::string>& risk_keys();

/// Reads `[risk]` (`tree`) into scenario.risk_inputs and scenario.risk_correlation. A
/// distribution is written `uniform LOW HIGH`, `triangular LOW MODE HIGH`, `normal SD` or
/// `fixed` (not varied), the numbers relative changes of the scenario's value (-0.2 = -20 %;
/// growth: an absolute change of growth_per_month). Throws ScenarioError naming the key: an
/// unknown distribution (the nearest suggested), a wrong count of numbers, a number that is
/// not one, LOW > MODE > HIGH, a change below -1 (-100 %), SD outside 0..1, a correlation
/// outside -1..1.
void read_risk_section(const boost::property_tree::ptree& tree, Scenario& scenario);

}  // namespace gputco::scenario_detail
