// The `[risk]` section: the uncertain inputs of the Monte Carlo, each with its distribution and
// range as the user believes them (README "Uncertainty: the [risk] section"). The one table of
// its keys, the RiskModel field each sets, the name and what-it-moves text the reports show
// (reports/risk_report.cpp, the workbook's Sensitivity sheet) and the text of a range (the
// Inputs sheet, the reports): scenario.cpp reads the section, resolve_risk.cpp turns it into a
// RiskModel, the reports describe it, all from here.
#pragma once

#include <boost/property_tree/ptree_fwd.hpp>
#include <string>
#include <vector>

#include "engine/plan/sensitivity.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {

/// One distribution key of `[risk]`.
struct RiskKey {
  const char* key;                   ///< its key in the section ("purchase_price")
  const char* name;                  ///< as reports name it ("purchase price")
  UncertainInput RiskModel::*field;  ///< the RiskModel range it sets
  const char* applies_to;            ///< what a draw moves, and the bound beyond the range
};

/// The distribution keys of `[risk]`, in the order the README lists them and every report
/// shows them: purchase_price, rental_rate, resale, tariff, utilization (RiskModel's
/// hours_per_day), maintenance, failure_rate, demand, growth.
const std::vector<RiskKey>& risk_key_table();

/// The key of the purchase/rental correlation (a number in -1..1, not a distribution).
inline constexpr const char* kRiskCorrelationKey = "correlation_purchase_rental";

/// The prefix of an exchange rate's key in `[risk]`: fx.USD.
inline constexpr const char* kRiskFxPrefix = "fx.";

/// The text of a range, each number a change in percent with `percent_decimals` decimals
/// (0 or more): "uniform -20 % .. +20 %", "triangular -15 % / 0 % / +15 %", "normal, sd 10 %",
/// "fixed (not varied)" for 0 .. 0. Zero is written without a sign. Never throws beyond
/// allocation.
std::string risk_range_text(const UncertainInput& input, int percent_decimals);

}  // namespace gputco

namespace gputco::scenario_detail {

/// The keys of `[risk]`: risk_key_table()'s, then kRiskCorrelationKey. (Besides these, one
/// fx.CODE key per exchange rate: is_risk_fx_key.)
const std::vector<std::string>& risk_keys();

/// true for fx.CODE with CODE an ISO 4217 currency code (fx.USD, fx.GBP).
bool is_risk_fx_key(const std::string& key);

/// Reads `[risk]` (`tree`) into scenario.risk_inputs and scenario.risk_correlation. A
/// distribution is written `uniform LOW HIGH`, `triangular LOW MODE HIGH`, `normal SD` or
/// `fixed` (not varied), the numbers relative changes of the scenario's value (-0.2 = -20 %;
/// growth: an absolute change of growth_per_month). Throws ScenarioError naming the key: an
/// unknown distribution (the nearest suggested), a wrong count of numbers, a number that is
/// not one, LOW > MODE > HIGH, a change below -1 (-100 %), SD outside 0..1, a correlation
/// outside -1..1, an fx.CODE key whose CODE is not an ISO 4217 code. The fx.CODE ranges (a
/// relative change of the exchange rate, plan currency per CODE) go into
/// scenario.risk_inputs under their key ("fx.USD").
void read_risk_section(const boost::property_tree::ptree& tree, Scenario& scenario);

}  // namespace gputco::scenario_detail
