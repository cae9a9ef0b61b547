// The Inputs sheet: every input with its provenance, and the workbook names the Cash flow
// formulas use to read them.
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

#include "engine/base/units.hpp"
#include "engine/finance/finance.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/hardware/power_limit.hpp"
#include "reports/xlsx/names.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// The label of an option's board_power_w input: the power its devices draw at load, which is
/// the power limit when one is set (engine/hardware/power_limit.hpp load_power_w).
std::string board_power_label(const Device& device, const std::string& suffix) {
  return (load_power_w(device) < device.board_power_w ? "Power per device at load (its power limit)"
                                                      : "Board power per device") +
         suffix;
}

enum class RowKind {
  input,       ///< a row of scenario.inputs
  supplement,  ///< needed by a formula, absent from scenario.inputs: the engine's value
  constant     ///< a definition (months per year), not an input
};

struct DisplayRow {
  std::string section;
  std::string key;
  std::string label;
  std::optional<double> value;
  std::string text;
  std::string unit;
  std::string provenance;
  RowKind kind = RowKind::input;
  /// A figure that follows from other rows (capacity from the speeds, tokens per day from the
  /// requests): its formula over (section, key) pairs, written as a formula with `value` (the
  /// engine's) as its cached result. Empty: a value.
  std::function<std::string(const InputNames& names, const std::string& section)> formula = nullptr;
  bool not_entered = false;  ///< an empty input cell (InputRow::not_entered)
};

/// tokens_per_day = requests_per_day x output_tokens_per_request (the resolver's rule).
std::string tokens_per_day_formula(const InputNames& names, const std::string&) {
  return "=" + names.at("workload", "requests_per_day") + "*" +
         names.at("workload", "output_tokens_per_request");
}

/// input_tokens_per_output_token = prompt_tokens_per_request / output_tokens_per_request.
std::string token_mix_formula(const InputNames& names, const std::string&) {
  return "=" + names.at("workload", "prompt_tokens_per_request") + "/" +
         names.at("workload", "output_tokens_per_request");
}

/// An owned option's resale at the horizon as a fraction of its capex, the devices' and the
/// host's fractions blended by their capex (scenarios/resolve_owned.cpp, resolve_residual):
/// (device fraction x count x price_per_gpu + host fraction x host_cost) / (count x
/// price_per_gpu + host_cost); the devices' fraction when the capex is 0.
std::string residual_blend_formula(const InputNames& names, const std::string& option) {
  const std::string devices =
      "(" + names.at(option, "count") + "*" + names.at(option, "price_per_gpu") + ")";
  const std::string host = names.at(option, "host_cost");
  const std::string device_fraction = names.at(option, "device_residual_fraction");
  return "=IF(" + devices + "+" + host + ">0,(" + device_fraction + "*" + devices + "+" +
         names.at(option, "host_residual_fraction") + "*" + host + ")/(" + devices + "+" + host +
         ")," + device_fraction + ")";
}

/// A number as a formula's literal (17 significant digits: the value itself).
std::string literal(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

/// A colocated unit's contracted power when the scenario gives none (the resolver's rule,
/// scenarios/resolve_owned.cpp): its power at load, devices + host, rounded up to the kW
/// step. The devices' power is gputco's (a device's board power is no scenario key): a
/// number, so that host_power_w, count and kw_step move it as gputco would.
std::string contracted_kw_formula(double device_load_w, const InputNames& names,
                                  const std::string& option) {
  return "=ROUNDUP(MAX(0,(" + names.at(option, "count") + "*" + literal(device_load_w) + "+" +
         names.at(option, "host_power_w") + ")/" + names.at(kConstantsSection, "watts_per_kw") +
         "/" + names.at(option, "kw_step") + "-1E-9),0)*" + names.at(option, "kw_step");
}

/// The idle power the resolver assumes when the scenario gives none (scenarios/resolve.cpp):
/// 10 % of each device's board power, + half the host's power at load for an owned unit.
std::string default_idle_formula(double device_idle_w, bool with_host, const InputNames& names,
                                 const std::string& option) {
  std::string f = "=" + names.at(option, "count") + "*" + literal(device_idle_w);
  if (with_host) {
    f += "+" + literal(kDefaultIdleFractionOfHostPower) + "*" + names.at(option, "host_power_w");
  }
  return f;
}

/// A fraction read off a resale curve at the horizon (scenarios/resale_choice.cpp resale_at):
/// linear between the curve's points, the last slope continued past its last point, within
/// 0 and 1.
std::string horizon_curve_formula(const std::vector<std::pair<double, double>>& points,
                                  const InputNames& names) {
  const std::string h = names.at("scenario", "horizon_months");
  const auto segment = [&](size_t i) {
    const auto& [xa, fa] = points[i - 1];
    const auto& [xb, fb] = points[i];
    return literal(fa) + "+(" + h + "-" + literal(xa) + ")*" + literal((fb - fa) / (xb - xa));
  };
  std::string f = segment(points.size() - 1);
  for (size_t i = points.size() - 1; i-- > 1;) {
    f = "IF(" + h + "<=" + literal(points[i].first) + "," + segment(i) + "," + f + ")";
  }
  return "=MAX(0,MIN(1," + f + "))";
}

/// One unit's capacity at load (engine capacity_tokens_per_hour): 3600 / (1 / aggregate decode
/// tokens/s + input tokens per output token / prefill tokens/s), the prefill term only with a
/// demand in tokens, a token mix and a known prefill rate; 0 without a decode rate.
std::string capacity_formula(const InputNames& names, const std::string& option) {
  const std::string decode = names.at(option, "aggregate_decode_tokens_per_s");
  std::string prefill_term = "0";
  if (names.has(option, "prefill_tokens_per_s") &&
      names.has("workload", "input_tokens_per_output_token")) {
    const std::string prefill = names.at(option, "prefill_tokens_per_s");
    const std::string mix = names.at("workload", "input_tokens_per_output_token");
    prefill_term = "IF(AND(" + names.at("workload", "demand_in_tokens") + "=1," + mix + ">0," +
                   prefill + ">0)," + mix + "/" + prefill + ",0)";
  }
  return "=IF(" + decode + ">0," + names.at(kConstantsSection, "seconds_per_hour") + "/(1/" +
         decode + "+" + prefill_term + "),0)";
}

/// An input a Cash flow formula reads, with the value the engine used for it.
struct Required {
  std::string section;
  std::string key;
  std::string label;
  std::string unit;
  double engine_value = 0;
  std::string provenance = "not in the scenario's input list: the value the engine used";
  std::function<std::string(const InputNames& names, const std::string& section)> formula = nullptr;
  bool not_entered = false;  ///< an empty input cell (InputRow::not_entered)
};

}  // namespace

std::string site_intensity_key(const ResolvedScenario& scenario) {
  for (const InputRow& row : scenario.inputs) {
    if (row.section == "site" && row.key == "green_power_g_co2e_per_kwh" && row.value) {
      return row.key;
    }
  }
  return "grid_g_co2e_per_kwh";
}

namespace {

std::vector<Required> required_inputs(const Plan& plan, const ResolvedScenario& scenario) {
  const PlanInputs& in = scenario.plan_inputs;
  const std::string& currency = plan.currency;
  std::vector<Required> required = {
      {"scenario", "horizon_months", "Horizon", "months", static_cast<double>(plan.horizon_months)},
      {"scenario", "discount_rate", "Discount rate per year", "fraction",
       in.finance.discount_rate_per_year},
      {"workload", "hours_per_day", "Hours of use per day", "h/day", in.workload.hours_per_day},
      {"workload", "days_per_month", "Days of use per month", "days/month",
       in.workload.days_per_month},
      {"site", "tariff_per_kwh", "Electricity tariff", currency + "/kWh", in.site.tariff_per_kwh},
      {"site", "pue", "PUE (facility power / IT power)", "ratio", in.site.pue},
      {"site", "tariff_trend_per_year", "Electricity price change per year", "fraction per year",
       in.site.tariff_trend_per_year},
      {"scenario", "rent_trend_per_year", "Hourly rental rates change per year",
       "fraction per year", in.finance.rent_trend_per_year},
      {"scenario", "vat_rate", "VAT rate", "fraction", in.finance.vat_rate},
      {"scenario", "vat_reclaimable", "VAT reclaimable (1 = yes)", "flag",
       in.finance.vat_reclaimable ? 1.0 : 0.0},
      {"scenario", "useful_life_months", "Useful life (straight-line depreciation)", "months",
       static_cast<double>(in.finance.useful_life_months)},
      {"scenario", "start_year", "First month: year", "year",
       static_cast<double>(in.finance.start_year)},
      {"scenario", "start_month", "First month: month of the year", "month",
       static_cast<double>(in.finance.start_month)},
      {"workload", "growth_per_month", "Demand growth per month", "fraction per month",
       in.workload.growth_per_month},
      {"workload", "tokens_per_day", "Tokens per day in month 1", "tokens/day",
       in.workload.tokens_per_day.value_or(0.0)},
      {"workload", "demand_in_tokens", "Demand given in tokens per day (1 = yes)", "flag",
       in.workload.tokens_per_day ? 1.0 : 0.0},
      {"workload", "concurrent_streams",
       "Streams decoding at once during the hours of use (the demand without tokens per day)",
       "streams", static_cast<double>(in.workload.concurrent_streams)},
      {"workload", "peak_multiplier",
       "Peak hour's load over the mean hour of use (units are sized for it)", "ratio",
       load_shape_of(in.workload).peak_multiplier},
      {"workload", "calendar_months", "Calendar months (1 = yes)", "flag",
       in.workload.hours_per_month_convention == HoursConvention::calendar ? 1.0 : 0.0},
      {"workload", "days_follow_convention", "Days of use follow the calendar (1 = yes)", "flag",
       in.workload.days_follow_convention ? 1.0 : 0.0},
      {"workload", "hours_per_month", "Hours per month (convention; average for calendar)",
       "h/month", average_hours_per_month(in.workload.hours_per_month_convention)},
  };
  // Tax depreciation per asset class (the Profit and loss sheet's VDB shares).
  const auto declining = [](const TaxClassRules& r) {
    return r.method == TaxDepreciationMethod::declining_balance ? 1.0 : 0.0;
  };
  const FinanceInputs& fin = in.finance;
  for (const Required& r : std::initializer_list<Required>{
           {"tax", "devices_declining_balance",
            "Devices: tax by declining balance (1 = yes, 0 = straight line)", "flag",
            declining(fin.tax_devices)},
           {"tax", "devices_life_years", "Devices: tax life", "years",
            static_cast<double>(fin.tax_devices.life_years)},
           {"tax", "host_declining_balance",
            "Host system: tax by declining balance (1 = yes, 0 = straight line)", "flag",
            declining(fin.tax_host)},
           {"tax", "host_life_years", "Host system: tax life", "years",
            static_cast<double>(fin.tax_host.life_years)},
           {"tax", "declining_balance_factor",
            "Declining balance: multiple of the straight-line rate", "factor",
            fin.tax_devices.factor},
           {"tax", "switch_to_straight_line",
            "Declining balance: switch to straight line when larger (1 = yes)", "flag",
            fin.tax_devices.switch_to_straight_line ? 1.0 : 0.0}}) {
    required.push_back(r);
  }
  // Pay-per-token APIs and carbon (issue #8): the token mix, the API price trend, and the
  // site's intensity under the key the scenario lists it by (a green-power contract's or the
  // grid's).
  bool any_api = false;
  bool any_requests_limit = false;
  for (const OptionResult& result : plan.options) {
    if (result.kind != OptionKind::api) continue;
    any_api = true;
    const OptionInputs* o = find_option_inputs(scenario, result.id);
    any_requests_limit = any_requests_limit || (o != nullptr && o->requests_per_minute_limit);
  }
  if (any_api || in.workload.input_tokens_per_output_token) {
    required.push_back({"workload", "input_tokens_per_output_token",
                        "Input tokens per output token", "ratio",
                        in.workload.input_tokens_per_output_token.value_or(0.0)});
  }
  if (any_api) {
    required.push_back({"scenario", "api_price_trend_per_year",
                        "Per-token API prices change per year", "fraction per year",
                        in.finance.api_price_trend_per_year});
  }
  if (any_requests_limit) {
    required.push_back({"workload", "requests_per_day", "Requests per day in month 1",
                        "requests/day", in.workload.requests_per_day.value_or(0.0)});
  }
  if (in.site.grid_g_co2e_per_kwh) {
    required.push_back({"site", site_intensity_key(scenario), "Grid carbon intensity", "g CO2e/kWh",
                        *in.site.grid_g_co2e_per_kwh});
  }
  for (const OptionResult& result : plan.options) {
    const OptionInputs* o = find_option_inputs(scenario, result.id);
    const auto add = [&](const char* key, const std::string& label, const std::string& unit,
                         double value) {
      required.push_back({result.id, key, label, unit, o != nullptr ? value : 0.0});
    };
    const OptionInputs none;
    const OptionInputs& v = o != nullptr ? *o : none;
    if (result.kind != OptionKind::api) {
      // The engine's estimates are inputs (a measured figure can replace them); the capacity
      // follows from them by formula.
      const double decode = result.feasible && std::isfinite(result.speed.aggregate_tokens_per_s)
                                ? result.speed.aggregate_tokens_per_s
                                : 0.0;
      required.push_back(
          {result.id, "aggregate_decode_tokens_per_s",
           "Decode speed of one unit at load, all streams together", "tokens/s", decode,
           result.feasible && result.serving && result.serving->calibration.runs > 0
               ? "gputco estimate refitted to your measured runs (Sources): the serving model's "
                 "output tokens/s at the goal (" +
                     result.serving_note + ")"
           : result.feasible && result.serving
               ? "gputco estimate: the serving model's output tokens/s at the goal (" +
                     result.serving_note + "); replace it with a measured figure"
           : result.feasible
               ? "gputco estimate: decode bound by memory bandwidth (README, Accuracy), " +
                     std::to_string(in.workload.concurrent_streams) + " stream(s)" +
                     (result.replicas > 1
                          ? " per instance, x " + std::to_string(result.replicas) + " instances"
                          : std::string()) +
                     "; replace it with a measured figure"
               : "the model does not fit: no decode speed"});
      const double per_stream = result.feasible && std::isfinite(result.speed.decode_tokens_per_s)
                                    ? result.speed.decode_tokens_per_s
                                    : 0.0;
      required.push_back(
          {result.id, "decode_tokens_per_s_per_stream", "Decode speed of one stream at load",
           "tokens/s", per_stream,
           result.feasible
               ? "gputco estimate (" +
                     std::string(result.serving ? "the serving model's tokens/s per user"
                                                : "one stream of the streams above") +
                     "); without tokens_per_day a month serves MIN(concurrent_streams x this, "
                     "the unit's decode speed) during the hours of use"
               : "the model does not fit: no decode speed"});
      if (result.feasible && result.gpus_per_replica > 0) {
        required.push_back({result.id, "replicas",
                            "Model instances per unit (each on " +
                                std::to_string(result.gpus_per_replica) + " of its " +
                                std::to_string(v.count) + " devices)",
                            "instances", static_cast<double>(result.replicas),
                            result.layout_note.empty() ? std::string("one device: one instance")
                                                       : result.layout_note});
      }
      const double mix = in.workload.tokens_per_day
                             ? in.workload.input_tokens_per_output_token.value_or(0.0)
                             : 0.0;
      if (v.prefill_tokens_per_s > 0) {
        required.push_back({result.id, "prefill_tokens_per_s",
                            "Prefill speed of one unit (reading the prompts)", "tokens/s",
                            v.prefill_tokens_per_s,
                            "gputco estimate: prefill bound by FP16 throughput (README, "
                            "Accuracy); replace it with a measured figure"});
      }
      const double capacity = v.capacity_tokens_per_hour > 0
                                  ? v.capacity_tokens_per_hour
                                  : capacity_tokens_per_hour(decode, v.prefill_tokens_per_s, mix);
      required.push_back(
          {result.id, "capacity_tokens_per_hour",
           "Capacity of one unit at load: output tokens per hour of device time", "tokens/h",
           o != nullptr ? capacity : 0.0,
           "formula: 3600 / (1 / decode tokens/s + input tokens per output token / prefill "
           "tokens/s)",
           capacity_formula});
    }
    switch (result.kind) {
      case OptionKind::buy:
        add("warranty_months", "Warranty", "months", v.warranty_months);
        add("annual_failure_rate", "Failures per year after the warranty", "fraction of devices",
            v.annual_failure_rate);
        if (v.hosting == Hosting::colocation) {
          add("colo_per_kw_month", "Colocation price per kW per month", currency + "/kW/month",
              v.colo_per_kw_month);
          add("contracted_kw", "Contracted power per unit", "kW", v.contracted_kw);
          add("colo_per_rack_unit_month", "Colocation price per rack unit per month",
              currency + "/U/month", v.colo_per_rack_unit_month);
          add("rack_units", "Rack units per unit", "U", v.rack_units);
          add("power_metered", "Energy metered apart (1 = yes)", "flag",
              v.power_metered ? 1.0 : 0.0);
        }
        if (v.pue) add("pue", "PUE where this option runs", "ratio", *v.pue);
        if (v.tariff_per_kwh) {
          add("tariff_per_kwh", "Energy price where this option runs", currency + "/kWh",
              *v.tariff_per_kwh);
        }
        if (v.financing == Financing::loan) {
          add("down_payment", "Down payment", "fraction of the purchase", v.down_payment_fraction);
          add("loan_rate", "Loan rate per year", "fraction per year", v.loan_rate_per_year);
          add("loan_term_months", "Loan term", "months", v.loan_term_months);
        } else if (v.financing == Financing::lease) {
          add("lease_rate_per_month", "Lease fee per month", "fraction of the hardware price",
              v.lease_rate_per_month);
          add("lease_term_months", "Lease term", "months", v.lease_term_months);
        }
        add("count", "Devices", "devices", v.count);
        add("price_per_gpu", "Purchase price per device", currency, v.price_per_gpu);
        add("host_cost", "Host system (once)", currency, v.host_cost);
        add("board_power_w", board_power_label(v.device, ""), "W", load_power_w(v.device));
        add("host_power_w", "Host power at load", "W", v.host_power_w);
        add("residual_fraction", "Resale value at the horizon", "fraction of capex",
            v.residual_fraction);
        add("maintenance_per_year", "Maintenance per year", "fraction of capex",
            v.maintenance_per_year);
        // Idle power is drawn all month by a unit that stays on, through the hours of use by
        // one switched off outside them.
        add("powered_off_when_idle", "Switched off outside the hours of use (1 = yes)", "flag",
            v.powered_off_when_idle ? 1.0 : 0.0);
        add("idle_power_w", "Idle power of the unit (devices + host)", "W", v.idle_power_w);
        break;
      case OptionKind::rent_hourly:
        add("count", "Devices", "devices", v.count);
        add("rate_per_gpu_hour", "Rent per device-hour", currency + "/device-hour",
            v.rate_per_gpu_hour);
        add("goodput", "Useful share of billed hours", "fraction", v.goodput);
        if (term_months(v.term) == 0 && v.hourly_billing.billing == Billing::autoscaled) {
          add("min_instances", "Instances always running (autoscaled)", "instances",
              v.hourly_billing.min_instances);
          add("billing_periods_per_hour",
              "Billing periods per hour (each busy period rounded up to one)", "periods/h",
              periods_per_hour(v.hourly_billing.granularity));
        }
        if (term_months(v.term) > 0) {
          add("term_months", "Reserved term", "months", term_months(v.term));
        }
        add("idle_power_w", "Idle power of the rented devices (energy estimate)", "W",
            v.idle_power_w);
        add("board_power_w", board_power_label(v.device, " (energy estimate)"), "W",
            load_power_w(v.device));
        add("pue", "Data centre PUE (energy estimate)", "ratio",
            v.pue.value_or(kDefaultDataCentrePue));
        break;
      case OptionKind::rent_monthly:
        add("price_per_month", "Server rent per month", currency + "/month", v.price_per_month);
        add("setup_fee", "Setup fee (once)", currency, v.setup_fee);
        add("notice_months", "Notice period (paid after the horizon)", "months", v.notice_months);
        add("count", "Devices in the server", "devices", v.count);
        add("board_power_w", board_power_label(v.device, " (energy estimate)"), "W",
            load_power_w(v.device));
        add("pue", "Data centre PUE (energy estimate)", "ratio",
            v.pue.value_or(kDefaultDataCentrePue));
        add("idle_power_w", "Idle power of the rented devices (energy estimate)", "W",
            v.idle_power_w);
        break;
      case OptionKind::api:
        add("input_price_per_million", "Price per million input tokens", currency,
            v.input_price_per_million);
        add("output_price_per_million", "Price per million output tokens", currency,
            v.output_price_per_million);
        if (v.tokens_per_minute_limit) {
          add("tokens_per_minute_limit", "Rate limit", "tokens/min", *v.tokens_per_minute_limit);
        }
        if (v.requests_per_minute_limit) {
          add("requests_per_minute_limit", "Rate limit", "requests/min",
              *v.requests_per_minute_limit);
        }
        break;
    }
    // The cost lines (engine/finance/cost_lines.hpp): every key the formulas read, 0 when not
    // entered.
    const CostLines& l = v.cost_lines;
    struct Line {
      const char* key;
      const char* label;
      std::string unit;
      const std::optional<double>* value;
    };
    const Line lines[] = {
        {"staff_hours_per_month", "Staff and operations: hours a month", "h/month",
         &l.staff_hours_per_month},
        {"staff_rate_per_hour", "Staff and operations: rate per hour", currency + "/h",
         &l.staff_rate_per_hour},
        {"staff_fte", "Staff and operations: share of full-time employees", "FTE", &l.staff_fte},
        {"staff_salary_per_year", "Staff and operations: cost per full-time employee a year",
         currency + "/FTE/year", &l.staff_salary_per_year},
        {"licence_per_month", "Software licences per month", currency + "/month",
         &l.licence_per_month},
        {"licence_per_year", "Software licences per year", currency + "/year", &l.licence_per_year},
        {"support_per_month", "Support contracts per month", currency + "/month",
         &l.support_per_month},
        {"support_per_year", "Support contracts per year", currency + "/year",
         &l.support_per_year}};
    for (const Line& line : lines) add(line.key, line.label, line.unit, line.value->value_or(0.0));
    if (result.kind != OptionKind::api) {
      add("licence_per_gpu_per_year", "Software licences per device a year",
          currency + "/device/year", l.licence_per_gpu_per_year.value_or(0.0));
      add("support_per_gpu_per_year", "Support contracts per device a year",
          currency + "/device/year", l.support_per_gpu_per_year.value_or(0.0));
    }
    if (result.kind == OptionKind::buy) {
      add("insurance_per_year", "Insurance per year", "fraction per year",
          l.insurance_per_year.value_or(0.0));
      if (v.hosting == Hosting::colocation) {
        add("colo_extras_per_month", "Colocation extras per unit a month", currency + "/unit/month",
            l.colo_extras_per_month.value_or(0.0));
      }
    }
    if (result.kind != OptionKind::api && v.grid_g_co2e_per_kwh) {
      add("grid_g_co2e_per_kwh", "Grid carbon intensity where it runs", "g CO2e/kWh",
          *v.grid_g_co2e_per_kwh);
    }
  }
  return required;
}

bool has_numeric_row(const std::vector<DisplayRow>& rows, const std::string& section,
                     const std::string& key) {
  for (const auto& row : rows) {
    if (row.section == section && row.key == key && (row.value || row.not_entered)) return true;
  }
  return false;
}

std::vector<DisplayRow> display_rows(const Plan& plan, const ResolvedScenario& scenario) {
  std::vector<DisplayRow> rows;
  const auto listed = [&](const std::string& section, const std::string& key) {
    for (const InputRow& in : scenario.inputs) {
      if (in.section == section && in.key == key && in.value) return true;
    }
    return false;
  };
  for (const InputRow& in : scenario.inputs) {
    DisplayRow row{in.section, in.key,  in.label,      in.value,
                   in.text,    in.unit, in.provenance, RowKind::input};
    row.not_entered = in.not_entered;
    // The resolver's derived figures stay formulas of what they derive from.
    if (in.section == "workload" && in.key == "tokens_per_day" &&
        listed("workload", "requests_per_day") && listed("workload", "output_tokens_per_request")) {
      row.formula = tokens_per_day_formula;
    }
    if (in.section == "workload" && in.key == "input_tokens_per_output_token" &&
        listed("workload", "prompt_tokens_per_request") &&
        listed("workload", "output_tokens_per_request")) {
      row.formula = token_mix_formula;
    }
    // The resale of devices and host blended by their capex (the resolver's rule): a formula
    // of both fractions, so that a changed price, count or host cost moves it as gputco would.
    if (in.key == "residual_fraction" && listed(in.section, "device_residual_fraction") &&
        listed(in.section, "host_residual_fraction")) {
      row.formula = residual_blend_formula;
    }
    // What the resolver derives from other rows when the scenario leaves it out: the colocated
    // unit's contracted kW from its power, its energy price from the site's, and an idle
    // power from the devices' and the host's (so that editing those moves them as gputco
    // would).
    const OptionInputs* option = xlsx::find_option_inputs(scenario, in.section);
    if (option != nullptr && in.key == "contracted_kw" &&
        in.provenance.rfind("derived: power at load", 0) == 0 && listed(in.section, "kw_step") &&
        listed(in.section, "host_power_w") && listed(in.section, "count")) {
      row.formula = [w = load_power_w(option->device)](const InputNames& names,
                                                       const std::string& section) {
        return contracted_kw_formula(w, names, section);
      };
    }
    if (option != nullptr && in.key == "tariff_per_kwh" &&
        in.provenance.rfind("default: the site's tariff", 0) == 0 &&
        listed("site", "tariff_per_kwh")) {
      row.formula = [](const InputNames& names, const std::string&) {
        return "=" + names.at("site", "tariff_per_kwh");
      };
    }
    if (option != nullptr && in.key == "idle_power_w" &&
        in.provenance.rfind("default: 10 % of board power per device", 0) == 0 &&
        listed(in.section, "count")) {
      const bool with_host = option->kind == OptionKind::buy && listed(in.section, "host_power_w");
      row.formula = [w = kDefaultIdleFractionOfBoardPower * option->device.board_power_w,
                     with_host](const InputNames& names, const std::string& section) {
        return default_idle_formula(w, with_host, names, section);
      };
    }
    // A resale fraction read off the catalog's curve at the horizon: read off it at the
    // horizon the workbook has.
    if (in.horizon_curve.size() >= 2 && listed("scenario", "horizon_months") &&
        row.formula == nullptr) {
      row.formula = [points = in.horizon_curve](const InputNames& names, const std::string&) {
        return horizon_curve_formula(points, names);
      };
    }
    // A value converted from another currency: the amount as published is the input, the
    // value its product with the rate (issue #16: the rate is an input the formulas use).
    if (in.published_amount && in.value && listed("fx", in.published_currency.c_str())) {
      const std::string published_key = in.key + "_published";
      const std::string& plan_currency = scenario.plan_inputs.finance.currency;
      std::string unit = in.unit;
      if (unit.rfind(plan_currency, 0) == 0)
        unit.replace(0, plan_currency.size(), in.published_currency);
      rows.push_back({in.section, published_key, in.label + ", as published", in.published_amount,
                      "", unit, "as published; the row below is it x fx." + in.published_currency,
                      RowKind::input});
      row.formula = [published_key, currency = in.published_currency](const InputNames& names,
                                                                      const std::string& section) {
        return "=" + names.at(section, published_key) + "*" + names.at("fx", currency);
      };
    }
    rows.push_back(row);
  }
  // Deduplicate: two options may need the same key, but each (section, key) once.
  std::set<std::pair<std::string, std::string>> added;
  for (const Required& r : required_inputs(plan, scenario)) {
    if (has_numeric_row(rows, r.section, r.key) || !added.insert({r.section, r.key}).second) {
      continue;
    }
    rows.push_back({r.section, r.key, r.label, r.engine_value, "", r.unit, r.provenance,
                    RowKind::supplement, r.formula});
  }
  const auto constant = [&](const char* key, const char* label, double value, const char* unit,
                            const char* provenance) {
    rows.push_back({kConstantsSection, key, label, value, "", unit, provenance, RowKind::constant});
  };
  constant("months_per_year", "Months per year", kMonthsPerYear, "months/year", "definition");
  constant("watts_per_kw", "Watts per kilowatt", kWattsPerKilowatt, "W/kW", "definition");
  constant("hours_per_full_day", "Hours per day (billing)", kHoursPerFullDay, "h/day",
           "definition");
  constant("seconds_per_hour", "Seconds per hour", kSecondsPerHour, "s/h", "definition");
  constant("grams_per_kilogram", "Grams per kilogram", kGramsPerKilogram, "g/kg", "definition");
  constant("tokens_per_million", "Tokens per million (prices, cost per million tokens)",
           kTokensPerMillion, "tokens", "definition");
  bool any_api = false;
  for (const auto& o : plan.options) any_api = any_api || o.kind == OptionKind::api;
  if (any_api)
    constant("minutes_per_hour", "Minutes per hour", kMinutesPerHour, "min/h", "definition");
  bool any_loan = false;
  for (const auto& o : scenario.plan_inputs.options) {
    any_loan = any_loan || o.financing == Financing::loan;
  }
  if (any_loan) {
    constant("negligible_rate_per_period", "Negligible loan rate per month",
             kNegligibleRatePerPeriod, "per month",
             "the engine's: a loan at a lower rate is repaid as at 0 % (principal / term)");
  }
  constant("load_tolerance", "Load rounding tolerance", kLoadTolerance, "units",
           "the engine's: a load within this of a whole number of units is that number");
  constant("comparison_tolerance", "Comparison tolerance", kComparisonTolerance, "relative",
           "the engine's: running sums this close are equal (break-even, payback, an outlay)");
  return rows;
}

/// Column of the Inputs sheet: whether a value drives the workbook's formulas.
constexpr lxw_col_t kRecalculatesColumn = 7;

}  // namespace

InputNames write_inputs_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario) {
  std::set<std::string> option_ids;
  for (const auto& o : plan.options) option_ids.insert(o.id);
  for (const auto& o : scenario.plan_inputs.options) option_ids.insert(o.id);

  DefinedNames names;
  DefinedNames prefixes;  // one distinct "opt_<id>" per option id
  std::map<std::string, std::string> prefix_of;
  for (const auto& id : option_ids) prefix_of[id] = prefixes.claim("opt_" + id);
  // The tax rules' names say what they are (tax_devices_life_years).
  prefix_of["tax"] = prefixes.claim("tax");
  // Exchange rates by currency code (fx_USD).
  prefix_of["fx"] = prefixes.claim("fx");

  constexpr lxw_col_t kSection = 0, kLabel = 1, kKey = 2, kValue = kInputsValueCol, kUnit = 4,
                      kProvenance = 5, kName = 6;
  sheet.text(0, 0, "Inputs", formats.title);
  // Wrapped across the table's columns A:I (16 + 34 + 22 + 15 + 18 + 52 + 36 + 17 + 15 = 225
  // characters): unwrapped it ran past them and the sheet printed smaller.
  write_wrapped_across(
      sheet, 1, kSection, kInputsWrittenCol, 225,
      "Yellow values are the inputs the formulas read (through the workbook names in "
      "column G): change one and every figure recalculates. White values are what "
      "gputco's engine used for its estimates of fit and speed (model, context, streams): "
      "change those in the scenario file and run gputco again. Grey italic values follow "
      "from the rows above by formula. Column I keeps the value gputco wrote: a changed "
      "input turns amber, and the figures only gputco computes (Sensitivity, Hardware) say "
      "\"stale: re-run gputco\" on the Checks sheet.",
      formats.note_wrapped);
  const lxw_row_t header = 3;
  const char* headers[] = {"Section", "Label",        "Key",
                           "Value",   "Unit",         "Provenance",
                           "Name",    "Recalculates", "As gputco wrote it"};
  for (lxw_col_t c = 0; c <= kInputsWrittenCol; ++c) {
    sheet.text(header, c, headers[c],
               c == kValue || c == kInputsWrittenCol ? formats.header_number
               : c == kUnit                          ? formats.header_indented
                                                     : formats.header);
  }

  // First the places and names of every row (a formula may read a row further down, such as
  // a constant), then the cells.
  const std::vector<DisplayRow> rows = display_rows(plan, scenario);
  std::vector<lxw_row_t> at(rows.size());
  std::vector<lxw_row_t> section_titles;
  InputNames result;
  lxw_row_t row = header + 1;
  RowKind previous = RowKind::input;
  for (size_t i = 0; i < rows.size(); ++i) {
    const DisplayRow& r = rows[i];
    if (r.kind != previous) {
      ++row;
      section_titles.push_back(row++);
      previous = r.kind;
    }
    at[i] = row++;
    const bool numeric = r.not_entered || (r.value && std::isfinite(*r.value));
    if (numeric && !result.has(r.section, r.key)) {
      const auto prefix = prefix_of.find(r.section);
      const std::string name =
          names.claim(prefix != prefix_of.end() ? prefix->second + "_" + r.key : r.key);
      check_xlsx(workbook_define_name(workbook, name.c_str(),
                                      ("=" + sheet_cell_ref(kInputsSheet, at[i], kValue)).c_str()),
                 "defining the workbook name " + name);
      result.add(r.section, r.key, name, at[i], r.value.value_or(0.0), r.formula != nullptr,
                 r.not_entered);
    }
  }

  size_t title = 0;
  previous = RowKind::input;
  for (size_t i = 0; i < rows.size(); ++i) {
    const DisplayRow& r = rows[i];
    if (r.kind != previous) {
      sheet.text(section_titles[title++], 0,
                 r.kind == RowKind::supplement
                     ? "Engine estimates and other values the formulas use (not in the "
                       "scenario's input list)"
                     : "Constants (definitions, not inputs)",
                 formats.subtitle);
      previous = r.kind;
    }
    const lxw_row_t here = at[i];
    sheet.text(here, kSection, r.section);
    sheet.text(here, kLabel, r.label);
    sheet.text(here, kKey, r.key);
    const bool named = result.has(r.section, r.key) && result.row_of(r.section, r.key) == here;
    if (r.value && named && r.formula != nullptr) {
      sheet.formula(here, kValue, r.formula(result, r.section), *r.value, formats.derived_number);
      sheet.text(here, kRecalculatesColumn, "formula", formats.indented);
    } else if (r.not_entered) {
      // Empty: the formulas read it as 0 until a value is typed in (finish_inputs_sheet gives
      // it the input style when a formula reads it).
      sheet.blank(here, kValue, formats.fixed_number);
      sheet.text(here, kRecalculatesColumn, "no: rerun gputco", formats.indented);
    } else if (r.value) {
      // Fixed until finish_inputs_sheet finds a formula that reads it (then yellow).
      sheet.number(here, kValue, *r.value,
                   r.kind == RowKind::constant ? formats.constant_number : formats.fixed_number);
      sheet.text(here, kRecalculatesColumn,
                 r.kind == RowKind::constant ? "definition" : "no: rerun gputco", formats.indented);
    } else {
      sheet.text(here, kValue, r.text, formats.fixed_text);
      sheet.text(here, kRecalculatesColumn, "no: rerun gputco", formats.indented);
    }
    sheet.text(here, kUnit, r.unit, formats.indented);
    sheet.text(here, kProvenance, r.provenance);
    if (named) sheet.text(here, kName, result.name_of(r.section, r.key));
  }

  sheet.width(kSection, kSection, 16);
  sheet.width(kLabel, kLabel, 34);
  sheet.width(kKey, kKey, 22);
  sheet.width(kValue, kValue, 15);
  sheet.width(kUnit, kUnit, 18);
  sheet.width(kProvenance, kProvenance, 52);
  sheet.width(kName, kName, 36);
  sheet.width(kRecalculatesColumn, kRecalculatesColumn, 17);
  sheet.width(kInputsWrittenCol, kInputsWrittenCol, 15);
  // The value column and the one gputco wrote, over the same rows: the Checks count the
  // inputs changed since (changed_inputs_count).
  const auto last_row = static_cast<lxw_row_t>(row > header + 1 ? row - 1 : header + 1);
  for (const auto& [name, col] : {std::pair<const char*, lxw_col_t>{kInputsNowName, kValue},
                                  {kInputsWrittenName, kInputsWrittenCol}}) {
    check_xlsx(workbook_define_name(
                   workbook, name,
                   ("=" + sheet_range_ref(kInputsSheet, header + 1, col, last_row, col)).c_str()),
               std::string("defining the workbook name ") + name);
  }
  // An input that differs from what gputco wrote is amber, whatever the file recalculates to.
  const std::string changed = "=AND(ISNUMBER(" +
                              cell_ref(header + 1, kInputsWrittenCol, false, true) + ")," +
                              cell_ref(header + 1, kValue, false, true) + "<>" +
                              cell_ref(header + 1, kInputsWrittenCol, false, true) + ")";
  lxw_conditional_format rule{};
  rule.type = LXW_CONDITIONAL_TYPE_FORMULA;
  rule.value_string = const_cast<char*>(changed.c_str());
  rule.format = formats.warning;
  check_xlsx(
      worksheet_conditional_format_range(sheet.raw(), header + 1, kValue, last_row, kValue, &rule),
      "marking changed inputs");
  worksheet_freeze_panes(sheet.raw(), header + 1, 0);
  check_xlsx(worksheet_repeat_rows(sheet.raw(), header, header), "setting Inputs print titles");
  set_print_layout(sheet);
  return result;
}

void finish_inputs_sheet(SheetWriter& sheet, const Formats& formats, const InputNames& names) {
  constexpr lxw_col_t kValue = kInputsValueCol;
  for (const auto& [section, key] : names.keys()) {
    // What gputco wrote, beside every named value a reader may change (an empty one as 0, as
    // the formulas read it): a changed input differs from it.
    if (section != kConstantsSection && !names.derived(section, key)) {
      sheet.number(names.row_of(section, key), kInputsWrittenCol,
                   names.blank(section, key) ? 0.0 : names.value_of(section, key),
                   formats.fixed_number);
    }
    if (section == kConstantsSection || names.derived(section, key) || !names.used(section, key)) {
      continue;
    }
    // Read by a formula: an input, in the input style (an empty one stays empty: not entered).
    if (names.blank(section, key)) {
      sheet.blank(names.row_of(section, key), kValue, formats.input_number);
    } else {
      sheet.number(names.row_of(section, key), kValue, names.value_of(section, key),
                   formats.input_number);
    }
    sheet.text(names.row_of(section, key), kRecalculatesColumn, "yes", formats.indented);
  }
}

}  // namespace gputco::xlsx
