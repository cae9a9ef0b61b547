#include "scenarios/risk_keys.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "pricing/number_text.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/currencies.hpp"
#include "scenarios/section_reader.hpp"

namespace gputco {

const std::vector<RiskKey>& risk_key_table() {
  static const std::vector<RiskKey> table = {
      {"purchase_price", "purchase price", &RiskModel::purchase_price,
       "price per GPU and host cost of owned options"},
      {"rental_rate", "rental rate", &RiskModel::rental_rate,
       "hourly rate and monthly price of rentals, API prices"},
      {"resale", "resale", &RiskModel::resale, "residual fraction, at most 100 %"},
      {"tariff", "tariff", &RiskModel::tariff, "electricity per kWh"},
      {"utilization", "hours per day", &RiskModel::hours_per_day, "at most 24"},
      {"maintenance", "maintenance", &RiskModel::maintenance, "fraction of capex per year"},
      {"failure_rate", "failure rate", &RiskModel::failure_rate,
       "annual failure rate of owned devices, at most 100 %"},
      {"demand", "demand", &RiskModel::demand,
       "tokens and requests per day at the same hours (a stated demand only)"},
      {"growth", "growth", &RiskModel::growth,
       "added to growth_per_month (absolute points a month), kept in -0.99 .. 1"}};
  return table;
}

std::string risk_range_text(const UncertainInput& input, int percent_decimals) {
  const auto percent = [percent_decimals](double fraction) {
    if (fraction == 0) return fmt::format("{:.{}f} %", 0.0, percent_decimals);
    return fmt::format("{:+.{}f} %", fraction * 100, percent_decimals);
  };
  switch (input.distribution) {
    case Distribution::uniform:
      if (input.low == 0 && input.high == 0) return "fixed (not varied)";
      return "uniform " + percent(input.low) + " .. " + percent(input.high);
    case Distribution::triangular:
      return "triangular " + percent(input.low) + " / " + percent(input.mode) + " / " +
             percent(input.high);
    case Distribution::normal:
      return fmt::format("normal, sd {:.{}f} %", input.sd * 100, percent_decimals);
  }
  return "?";
}

}  // namespace gputco

namespace gputco::scenario_detail {

namespace {

/// The largest relative change a range may reach: 101 times the scenario's value. Beyond it
/// the draws are not an uncertainty but another scenario, and sums of such amounts over many
/// months leave the doubles' range (1e308 gave a NaN NPV).
constexpr double kMaxRelativeChange = 100;

constexpr const char* kGrammar =
    "uniform LOW HIGH, triangular LOW MODE HIGH, normal SD or fixed (relative changes: -0.2 for "
    "-20 %)";

UncertainInput read_distribution(const SectionReader& r, const std::string& key,
                                 const std::string& text) {
  std::istringstream words(text);
  std::string name;
  words >> name;
  std::vector<double> numbers;
  for (std::string word; words >> word;) {
    const auto value = parse_number_text(word);
    if (!value || !std::isfinite(*value)) {
      r.fail(key,
             "expected a number, got '" + word + "' in '" + text + "' (write " + kGrammar + ")");
    }
    numbers.push_back(*value);
  }
  const std::vector<std::string> names = {"uniform", "triangular", "normal", "fixed"};
  const auto count = [&](size_t wanted) {
    if (numbers.size() != wanted) {
      r.fail(key, name + " takes " + std::to_string(wanted) + " number(s), got " +
                      std::to_string(numbers.size()) + " in '" + text + "' (write " + kGrammar +
                      ")");
    }
  };
  UncertainInput in;
  if (name == "fixed") {
    count(0);
    return in;  // uniform 0 .. 0: the scenario's value
  }
  if (name == "uniform") {
    count(2);
    in = {Distribution::uniform, numbers[0], 0, numbers[1], 0};
  } else if (name == "triangular") {
    count(3);
    in = {Distribution::triangular, numbers[0], numbers[1], numbers[2], 0};
  } else if (name == "normal") {
    count(1);
    in = {Distribution::normal, 0, 0, 0, numbers[0]};
    if (!(in.sd >= 0 && in.sd <= 1)) {
      r.fail(key,
             "normal: the standard deviation is a relative change between 0 and 1 (0.1 for "
             "10 %), got '" +
                 text + "'");
    }
    return in;
  } else {
    r.fail(key, "unknown distribution '" + name + "'" + did_you_mean(name, names) + " (write " +
                    kGrammar + ")");
  }
  const bool ordered = in.distribution == Distribution::uniform
                           ? in.low <= in.high
                           : in.low <= in.mode && in.mode <= in.high;
  if (!ordered) {
    r.fail(key, "expected LOW <= " +
                    std::string(in.distribution == Distribution::triangular ? "MODE <= " : "") +
                    "HIGH, got '" + text + "'");
  }
  if (key == "growth") {
    // An absolute change of growth_per_month: +-1 is already +-100 % a month.
    if (in.low < -1 || in.high > 1) {
      r.fail(key,
             "a change of the monthly growth between -1 and 1 (0.02: two points more a month), "
             "got '" +
                 text + "'");
    }
    return in;
  }
  if (in.low < -1) {
    r.fail(key, "a change below -1 (-100 %) would make the value negative, got '" + text + "'");
  }
  if (in.high > kMaxRelativeChange) {
    r.fail(key,
           "a change above 100 (+10,000 %, 101 times the value) is not a range gputco "
           "takes, got '" +
               text + "'");
  }
  return in;
}

}  // namespace

const std::vector<std::string>& risk_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const RiskKey& k : risk_key_table()) out.emplace_back(k.key);
    out.emplace_back(kRiskCorrelationKey);
    return out;
  }();
  return keys;
}

bool is_risk_fx_key(const std::string& key) {
  const std::string prefix = kRiskFxPrefix;
  return key.rfind(prefix, 0) == 0 && is_iso_4217_currency(key.substr(prefix.size()));
}

void read_risk_section(const boost::property_tree::ptree& tree, Scenario& scenario) {
  // fx.CODE keys: an ISO 4217 code after the prefix, else refused naming the key.
  std::vector<std::string> known = risk_keys();
  std::vector<std::string> fx_keys;
  for (const auto& entry : tree) {
    const std::string& key = entry.first;
    if (key.rfind(kRiskFxPrefix, 0) != 0) continue;
    if (!is_risk_fx_key(key)) {
      const auto [where, line] = scenario.location_of("risk", key);  // the file or --set
      throw ScenarioError(where, line, "[risk] " + key,
                          "expected fx. and an ISO 4217 currency code in capitals (fx.USD: the "
                          "exchange rate, plan currency per 1 USD)");
    }
    known.push_back(key);
    fx_keys.push_back(key);
  }
  SectionReader r(tree, "risk", scenario, known);
  for (const auto& key : fx_keys) {
    if (const auto text = r.text(key)) scenario.risk_inputs[key] = read_distribution(r, key, *text);
  }
  for (const auto& key : risk_keys()) {
    if (key == kRiskCorrelationKey) {
      r.fraction(key, scenario.risk_correlation, -1, 1,
                 "a correlation (0.6: the two prices move together)");
      continue;
    }
    if (const auto text = r.text(key)) scenario.risk_inputs[key] = read_distribution(r, key, *text);
  }
}

}  // namespace gputco::scenario_detail
