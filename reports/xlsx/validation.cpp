// Data validation of the Inputs sheet: each named input cell accepts only values in its
// domain, with a message that says which (a fraction 0..1, hours 0..24, PUE 1..3, ...).
#include <cstring>
#include <limits>
#include <set>
#include <string_view>

#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// One input domain.
struct Rule {
  std::uint8_t type = LXW_VALIDATION_TYPE_DECIMAL;
  double minimum = 0;
  double maximum = 0;
  bool has_maximum = false;
  const char* message = "";
  bool blank_allowed = false;  ///< empty means "not entered" (the cost lines)
};

Rule fraction(const char* message) {
  return {LXW_VALIDATION_TYPE_DECIMAL, 0, 1, true, message};
}
Rule at_least(double minimum, const char* message) {
  return {LXW_VALIDATION_TYPE_DECIMAL, minimum, 0, false, message};
}
Rule whole(double minimum, const char* message) {
  return {LXW_VALIDATION_TYPE_INTEGER, minimum, 0, false, message};
}
Rule between(double minimum, double maximum, const char* message) {
  return {LXW_VALIDATION_TYPE_DECIMAL, minimum, maximum, true, message};
}

bool is_one_of(const std::string& key, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys) {
    if (key == k) return true;
  }
  return false;
}

/// The domain of an input, by its key (the engine's checks, engine/plan/plan.hpp). Keys this
/// list does not know take any number (text is still refused).
Rule rule_for(const std::string& key, int horizon_months) {
  if (key == "hours_per_day") return between(0, 24, "Hours of use per day: 0 to 24.");
  if (key == "days_per_month") return between(0, 31, "Days of use per month: 0 to 31.");
  if (key == "pue") return between(1, 3, "PUE (facility power / IT power): 1 to 3.");
  if (key == "goodput") return between(0, 1, "Goodput: a fraction above 0, at most 1.");
  if (key == "horizon_months") {
    Rule r = whole(1, "Horizon: whole months, 1 up to the months the Timeline has.");
    r.maximum = horizon_months;
    r.has_maximum = true;
    return r;
  }
  if (is_one_of(key, {"discount_rate", "residual_fraction", "maintenance_per_year", "vat_rate",
                      "down_payment", "annual_failure_rate", "loan_rate", "lease_rate_per_month",
                      "device_residual_fraction", "host_residual_fraction"})) {
    return fraction("A fraction between 0 and 1 (0.08 = 8 %).");
  }
  // [tax] rate (issue #40): the parser's range, 0 to kMostTaxRate (0.99).
  if (key == "rate")
    return between(0, 0.99, "A tax rate: a fraction from 0 to 0.99 (0.25 = 25 %).");
  if (key == "start_month") {
    Rule r = whole(1, "The first month of the plan: 1 to 12.");
    r.maximum = 12;
    r.has_maximum = true;
    return r;
  }
  if (key == "start_year") {
    Rule r = whole(1900, "The first month's year: 1900 to 9999.");
    r.maximum = 9999;
    r.has_maximum = true;
    return r;
  }
  if (key == "peak_multiplier") {
    return between(1, 24,
                   "The peak hour over the mean hour of use: 1 to 24 (and at most the hours "
                   "of use a day).");
  }
  if (is_one_of(
          key, {"powered_off_when_idle", "power_metered", "vat_reclaimable", "demand_in_tokens"})) {
    Rule r = whole(0, "1 = yes, 0 = no.");
    r.maximum = 1;
    r.has_maximum = true;
    return r;
  }
  if (is_one_of(key, {"replicas", "prompt_tokens_per_request", "output_tokens_per_request"})) {
    return whole(1, "A whole number, at least 1.");
  }
  if (is_one_of(key, {"min_instances"})) {
    return whole(0, "A whole number, at least 0.");
  }
  if (is_one_of(
          key,
          {"idle_power_w", "requests_per_day", "decode_tokens_per_s_per_stream",
           "aggregate_decode_tokens_per_s", "prefill_tokens_per_s", "capacity_tokens_per_hour",
           "input_price_per_million", "output_price_per_million", "tokens_per_minute_limit",
           "requests_per_minute_limit", "grid_g_co2e_per_kwh", "green_power_g_co2e_per_kwh"})) {
    return at_least(0, "A rate, power or amount: not negative.");
  }
  if (is_one_of(key, {"growth_per_month", "tariff_trend_per_year", "rent_trend_per_year"})) {
    return between(-1, 1, "A change as a fraction between -1 and 1 (0.05 = +5 %).");
  }
  if (is_one_of(key, {"count", "context_tokens", "concurrent_streams", "loan_term_months",
                      "lease_term_months", "useful_life_months"})) {
    return whole(1, "A whole number, at least 1.");
  }
  if (is_one_of(key, {"max_price_age_days", "warranty_months", "notice_months"})) {
    return whole(0, "A whole number, at least 0.");
  }
  if (is_one_of(key, {"price_per_gpu", "host_cost", "rate_per_gpu_hour", "price_per_month",
                      "setup_fee", "tariff_per_kwh", "board_power_w", "host_power_w",
                      "colo_per_kw_month", "contracted_kw", "colo_per_rack_unit_month",
                      "rack_units", "tokens_per_day", "users"})) {
    return at_least(0, "A price, power or amount: not negative.");
  }
  if (is_one_of(key, {"devices_life_years", "host_life_years"})) {
    Rule r = whole(1, "Tax life: whole years, 1 to 50.");
    r.maximum = 50;
    r.has_maximum = true;
    return r;
  }
  if (is_one_of(key, {"devices_declining_balance", "host_declining_balance",
                      "switch_to_straight_line"})) {
    Rule r = whole(0, "1 = yes, 0 = no.");
    r.maximum = 1;
    r.has_maximum = true;
    return r;
  }
  if (key == "declining_balance_factor") {
    return between(0.1, 10, "Declining balance: a multiple of the straight-line rate, 0.1 to 10.");
  }
  // The cost lines (engine/finance/cost_lines.hpp): empty = not entered, counted as 0.
  if (key == "insurance_per_year") {
    Rule r = fraction("A fraction of the purchase value a year (0.01 = 1 %); empty = not entered.");
    r.blank_allowed = true;
    return r;
  }
  if (is_one_of(key, {"staff_hours_per_month", "staff_rate_per_hour", "staff_fte",
                      "staff_salary_per_year", "licence_per_month", "licence_per_year",
                      "licence_per_gpu_per_year", "support_per_month", "support_per_year",
                      "support_per_gpu_per_year", "colo_extras_per_month"})) {
    Rule r = at_least(0, "An amount: not negative; empty = not entered (counted as 0).");
    r.blank_allowed = true;
    return r;
  }
  return between(-1e300, 1e300, "A number.");
}

}  // namespace

InputDomain input_domain(const std::string& key, int horizon_months) {
  const Rule rule = rule_for(key, horizon_months);
  InputDomain domain;
  domain.minimum = rule.minimum;
  domain.maximum = rule.has_maximum ? rule.maximum : std::numeric_limits<double>::infinity();
  domain.whole = rule.type == LXW_VALIDATION_TYPE_INTEGER;
  domain.blank_allowed = rule.blank_allowed;
  return domain;
}

namespace {

/// Zero-based (row, col) of the cell a defined name points at ("Inputs!$D$12").
std::pair<lxw_row_t, lxw_col_t> name_target(lxw_workbook* workbook, const std::string& name) {
  lxw_defined_name* defined = nullptr;
  TAILQ_FOREACH(defined, workbook->defined_names, list_pointers) {
    if (name != defined->name) continue;
    const std::string_view formula(defined->formula);
    const size_t bang = formula.rfind('!');
    std::string_view ref = bang == std::string_view::npos ? formula : formula.substr(bang + 1);
    lxw_col_t col = 0;
    lxw_row_t row = 0;
    bool any_col = false, any_row = false;
    for (char c : ref) {
      if (c == '$') continue;
      if (c >= 'A' && c <= 'Z' && !any_row) {
        col = static_cast<lxw_col_t>(col * 26 + static_cast<lxw_col_t>(c - 'A' + 1));
        any_col = true;
      } else if (c >= '0' && c <= '9') {
        row = row * 10 + static_cast<lxw_row_t>(c - '0');
        any_row = true;
      } else {
        break;
      }
    }
    if (any_col && any_row) return {row - 1, static_cast<lxw_col_t>(col - 1)};
  }
  throw XlsxError("no cell for the workbook name " + name);
}

}  // namespace

void add_input_validation(lxw_workbook* workbook, SheetWriter& inputs, const InputNames& names,
                          int horizon_months) {
  for (const auto& [section, key] : names.keys()) {
    // Definitions and figures that follow by formula are not inputs.
    if (section == kConstantsSection || names.derived(section, key)) continue;
    const Rule rule = rule_for(key, horizon_months);
    lxw_data_validation validation{};
    validation.validate = rule.type;
    validation.criteria = rule.has_maximum ? LXW_VALIDATION_CRITERIA_BETWEEN
                                           : LXW_VALIDATION_CRITERIA_GREATER_THAN_OR_EQUAL_TO;
    if (rule.has_maximum) {
      validation.minimum_number = rule.minimum;
      validation.maximum_number = rule.maximum;
    } else {
      validation.value_number = rule.minimum;
    }
    validation.ignore_blank = rule.blank_allowed ? LXW_VALIDATION_ON : LXW_VALIDATION_OFF;
    validation.show_input = LXW_VALIDATION_ON;
    validation.show_error = LXW_VALIDATION_ON;
    validation.error_type = LXW_VALIDATION_ERROR_TYPE_STOP;
    std::string message(rule.message);
    validation.input_message = message.data();
    validation.error_message = message.data();
    std::string title = "Allowed values";
    validation.input_title = title.data();
    validation.error_title = title.data();
    const auto [row, col] = name_target(workbook, names.name_of(section, key));
    check_xlsx(worksheet_data_validation_cell(inputs.raw(), row, col, &validation),
               "adding data validation to " + inputs.name() + " for " + key);
  }
}

}  // namespace gputco::xlsx
