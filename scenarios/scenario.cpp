#include "scenarios/scenario.hpp"

#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "pricing/suggest.hpp"
#include "scenarios/constraints.hpp"
#include "scenarios/cost_line_keys.hpp"
#include "scenarios/currencies.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/inline_parts.hpp"
#include "scenarios/model_files.hpp"
#include "scenarios/overrides.hpp"
#include "scenarios/risk_keys.hpp"
#include "scenarios/scenario_tree.hpp"
#include "scenarios/section_reader.hpp"
#include "scenarios/workload_section.hpp"

namespace gputco {

namespace pt = boost::property_tree;

namespace {

std::string format_message(const std::string& file, int line, const std::string& key,
                           const std::string& problem) {
  std::ostringstream out;
  out << file;
  if (line > 0) out << ":" << line;
  out << ": ";
  if (!key.empty()) out << key << ": ";
  out << problem;
  return out.str();
}

}  // namespace

ScenarioError::ScenarioError(std::string file, int line, std::string key,
                             const std::string& problem)
    : std::runtime_error(format_message(file, line, key, problem)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)) {}

std::string Scenario::provenance(const std::string& section, const std::string& key) const {
  const std::string path = section + "." + key;
  if (!given.count(path)) return "default";
  if (const auto origin = origins.find(path); origin != origins.end()) {
    return origin->second.provenance;
  }
  const auto at = lines.find(path);  // line_of(section, key)
  const int line = at == lines.end() ? 0 : at->second;
  return line > 0 ? "scenario file line " + std::to_string(line) : "scenario file";
}

int Scenario::line_of(const std::string& section, const std::string& key) const {
  const auto it = lines.find(section + "." + key);
  return it == lines.end() ? 0 : it->second;
}

std::pair<std::string, int> Scenario::location_of(const std::string& section,
                                                  const std::string& key) const {
  if (const auto origin = origins.find(section + "." + key); origin != origins.end()) {
    return {origin->second.file, origin->second.line};
  }
  const int line = line_of(section, key);
  return {file, line > 0 ? line : line_of(section, "")};
}

namespace {

const std::vector<std::string> kScenarioKeys = {"name",
                                                "currency",
                                                "start",
                                                "horizon_months",
                                                "discount_rate",
                                                "as_of",
                                                "customer",
                                                "quote_id",
                                                "paper",
                                                "proposed",
                                                "valid_days",
                                                "max_price_age_days",
                                                "baseline",
                                                "vat_rate",
                                                "vat_reclaimable",
                                                "rent_trend_per_year",
                                                "api_price_trend_per_year",
                                                "hours_per_month_convention",
                                                "useful_life_months",
                                                "price_basis",
                                                "prefer_fresh_prices"};
const std::vector<std::string> kSiteKeys = {"tariff_per_kwh",
                                            "tariff",
                                            "pue",
                                            "tariff_trend_per_year",
                                            "grid_region",
                                            "grid_g_co2e_per_kwh",
                                            "green_power",
                                            "green_power_g_co2e_per_kwh"};
const std::vector<std::string> kSellerKeys = {"company", "contact", "logo", "terms"};
const std::vector<std::string> kTaxKeys = {"rate",
                                           "devices_method",
                                           "devices_life_years",
                                           "host_method",
                                           "host_life_years",
                                           "declining_balance_factor",
                                           "switch_to_straight_line"};
const std::vector<std::string> kOptionKeys = {"kind",
                                              "label",
                                              "gpu",
                                              "system",
                                              "count",
                                              "nvlink_domain_gpus",
                                              "power_limit_w",
                                              "condition",
                                              "price_per_gpu",
                                              "host_cost",
                                              "host_power_w",
                                              "residual_fraction",
                                              "maintenance_per_year",
                                              "rate_per_gpu_hour",
                                              "price_per_month",
                                              "setup_fee",
                                              "provider",
                                              "split",
                                              "backend",
                                              "engine",
                                              "quant",
                                              "term",
                                              "goodput",
                                              "billing",
                                              "min_instances",
                                              "billing_granularity",
                                              "notice_months",
                                              "warranty_months",
                                              "annual_failure_rate",
                                              "hosting",
                                              "colo_per_kw_month",
                                              "colo_per_rack_unit_month",
                                              "rack_units",
                                              "contracted_kw",
                                              "kw_step",
                                              "power_metered",
                                              "pue",
                                              "tariff_per_kwh",
                                              "financing",
                                              "down_payment",
                                              "loan_rate",
                                              "loan_term_months",
                                              "lease_rate_per_month",
                                              "lease_term_months",
                                              "overflow",
                                              "overflow_option",
                                              "api",
                                              "input_price_per_million",
                                              "output_price_per_million",
                                              "requests_per_minute_limit",
                                              "tokens_per_minute_limit",
                                              "idle_power_w",
                                              "powered_off_when_idle",
                                              "grid_region",
                                              "grid_g_co2e_per_kwh",
                                              "staff_hours_per_month",
                                              "staff_rate_per_hour",
                                              "staff_fte",
                                              "staff_salary_per_year",
                                              "licence_per_month",
                                              "licence_per_year",
                                              "licence_per_gpu_per_year",
                                              "support_per_month",
                                              "support_per_year",
                                              "support_per_gpu_per_year",
                                              "insurance_per_year",
                                              "colo_extras_per_month",
                                              "price_basis",
                                              "prefer_fresh_prices",
                                              "allowed",
                                              "reason",
                                              "requires",
                                              "offers",
                                              "region"};
const std::vector<std::string> kOptionKinds = {
    "buy", "rent_hourly", "rent_monthly", "rent_spot", "colocation", "blend", "api"};
const std::vector<std::string> kOwnedKinds = {"buy", "colocation", "blend"};
const std::vector<std::string> kPriceBases = {"street", "list", "lowest", "median"};

bool valid_option_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_' || c == '.';
  });
}

// A yearly trend held over a long horizon compounds far (+5 %/yr over 600 months: x11.4):
// beyond x4 or below x0.25 by the last month, a warning names the key, the factor and that
// month, as the engine applies it (trend_factor: (1 + trend)^((month - 1) / 12)).
void warn_compounding_trends(Scenario& s) {
  constexpr double kFactorAbove = 4.0;
  constexpr double kFactorBelow = 0.25;
  const struct {
    const char* section;
    const char* key;
    double trend_per_year;
    const char* what;
  } trends[] = {
      {"scenario", "rent_trend_per_year", s.rent_trend_per_year, "rental rates"},
      {"scenario", "api_price_trend_per_year", s.api_price_trend_per_year, "per-token API prices"},
      {"site", "tariff_trend_per_year", s.tariff_trend_per_year, "tariffs"}};
  const int last_month = s.horizon_months;
  for (const auto& t : trends) {
    const double factor = std::pow(1.0 + t.trend_per_year, (last_month - 1) / 12.0);
    if (!(factor > kFactorAbove || factor < kFactorBelow)) continue;
    const auto [file, line] = s.location_of(t.section, t.key);
    s.warnings.push_back(fmt::format(
        "{}{}: [{}] {} = {} compounds to x{:.2f} by month {} ({}), the horizon's last: {} that "
        "far out are a guess (a yearly change rarely holds so long)",
        file, line > 0 ? ":" + std::to_string(line) : "", t.section, t.key, t.trend_per_year,
        factor, last_month, add_months(s.start, last_month - 1), t.what));
  }
}

}  // namespace

const std::vector<std::string>& scenario_keys(const std::string& section) {
  static const std::vector<std::string> none;
  return section == "scenario"              ? kScenarioKeys
         : section == "workload"            ? scenario_detail::kWorkloadKeys
         : section == "site"                ? kSiteKeys
         : section == "seller"              ? kSellerKeys
         : section == "tax"                 ? kTaxKeys
         : section == "constraints"         ? scenario_detail::constraints_keys()
         : section == "risk"                ? scenario_detail::risk_keys()
         : section.rfind("option:", 0) == 0 ? kOptionKeys
                                            : none;
}

bool is_scenario_key(const std::string& section, const std::string& key) {
  if (section == "fx") return is_iso_4217_currency(key);
  if (section == "risk" && scenario_detail::is_risk_fx_key(key)) return true;
  const auto& keys = scenario_keys(section);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

Scenario parse_scenario(std::istream& in, ScenarioFormat format, const std::string& file,
                        const std::vector<ScenarioOverride>& overrides) {
  return parse_scenario(read_scenario_tree(in, format, file), overrides);
}

Scenario parse_scenario(const ScenarioTree& read, const std::vector<ScenarioOverride>& overrides) {
  const std::string& file = read.file;
  const ScenarioFormat format = read.format;
  Scenario s;
  s.file = file;
  s.lines = read.lines;
  pt::ptree tree = read.tree;  // the overrides go into a copy
  apply_overrides(tree, overrides, s);
  const auto is_section_name = [&](const std::string& name) {
    return name == "scenario" || name == "workload" || name == "site" || name == "seller" ||
           name == "tax" || name == "fx" || name == "model" || name == "constraints" ||
           name == "risk" || name.rfind("option:", 0) == 0 || name.rfind("device:", 0) == 0 ||
           (format == ScenarioFormat::ini && s.lines.count(name + ".") > 0);
  };

  bool has_scenario = false, has_workload = false;
  // Ids seen, to refuse a second one at once (a set: a scan of the earlier ones made reading
  // 20,000 [device:] sections quadratic).
  std::set<std::string> option_ids, device_ids, sections;
  for (const auto& [section, child] : tree) {
    const int line = s.line_of(section, "");
    if (!sections.insert(section).second) {
      // INI files are refused by the parser; a JSON object may repeat a section.
      throw ScenarioError(file, line, "[" + section + "]",
                          "duplicate section: give each section once");
    }
    // An empty section ({} in JSON, a header without keys in INI) is read as a section.
    if (child.empty() && format == ScenarioFormat::json && is_section_name(section) &&
        !child.data().empty()) {
      // {"scenario": 5}: the name of a section with a value.
      throw ScenarioError(file, 0, "[" + section + "]",
                          "expected a section (an object of keys), got '" + child.data() + "'");
    }
    if (child.empty() && !(child.data().empty() && is_section_name(section))) {
      throw ScenarioError(file, s.line_of("", section), section,
                          "a key outside any section; keys belong in [scenario], [workload], "
                          "[site] or [option:ID]");
    }
    if (section == "scenario") {
      has_scenario = true;
      SectionReader r(child, section, s, kScenarioKeys);
      r.text("name", s.name);
      r.text("currency", s.currency);
      if (!is_iso_4217_currency(s.currency)) {
        std::string upper = s.currency;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        // ISO 4217's X codes outside the regional currencies (XAU gold, XDR, XTS, XXX) are
        // codes of metals, funds and tests: no money a plan is kept in.
        const bool x_code = upper.size() == 3 && upper[0] == 'X' && upper == s.currency;
        r.fail("currency",
               x_code ? "'" + s.currency +
                            "' is an ISO 4217 code of a precious metal, fund or test, not a "
                            "currency a plan is kept in (EUR, USD, GBP, CHF, JPY, ...)"
                      : "expected an ISO 4217 currency code in capitals (EUR, USD, GBP, CHF, "
                        "JPY, ...), got '" +
                            s.currency + "'" +
                            (is_iso_4217_currency(upper) ? "; did you mean '" + upper + "'?" : ""));
      }
      r.text("start", s.start);
      r.integer("horizon_months", s.horizon_months, 1, 600);
      r.fraction("discount_rate", s.discount_rate, -0.2, 1.0, "a fraction per year (0.08 for 8 %)");
      r.text("as_of", s.as_of);
      r.text("customer", s.customer);
      r.text("quote_id", s.quote_id);
      r.choice("paper", s.paper, {"a4", "letter"});
      r.text("proposed", s.proposed);
      r.integer("valid_days", s.valid_days, 1, 3650);
      r.integer("max_price_age_days", s.max_price_age_days, 1, 36500);
      r.text("baseline", s.baseline);
      r.fraction("vat_rate", s.vat_rate, 0, 1, "a fraction (0.19 for 19 %)");
      if (auto v = r.boolean("vat_reclaimable")) s.vat_reclaimable = *v;
      r.fraction("rent_trend_per_year", s.rent_trend_per_year, -0.99, 1,
                 "a fraction per year (-0.15 for -15 %)");
      r.fraction("api_price_trend_per_year", s.api_price_trend_per_year, -0.99, 1,
                 "a fraction per year (-0.3 for -30 %)");
      r.choice("hours_per_month_convention", s.hours_per_month_convention,
               {"730", "720", "calendar"});
      r.integer("useful_life_months", s.useful_life_months, 1, 600);
      r.choice("price_basis", s.price_basis, kPriceBases);
      if (auto v = r.boolean("prefer_fresh_prices")) s.prefer_fresh_prices = *v;
      if (!s.as_of.empty() && !parse_date(s.as_of)) {
        r.fail("as_of",
               "expected a date YYYY-MM-DD, got '" + s.as_of + "' (a real date, years 1900-2999)");
      }
      if (!s.start.empty() && !parse_month(s.start)) {
        r.fail("start",
               "expected a month YYYY-MM, got '" + s.start + "' (a real month, years 1900-2999)");
      }
    } else if (section == "workload") {
      has_workload = true;
      scenario_detail::read_workload_section(child, s);
    } else if (section == "tax") {
      SectionReader r(child, section, s, kTaxKeys);
      const std::vector<std::string> methods = {"straight_line", "declining_balance"};
      r.fraction("rate", s.tax_rate, 0, kMostTaxRate,
                 "a tax rate as a fraction (0.25 for 25 %), below 1");
      r.choice("devices_method", s.tax_devices_method, methods);
      r.choice("host_method", s.tax_host_method, methods);
      r.integer("devices_life_years", s.tax_devices_life_years, 1, 50);
      r.integer("host_life_years", s.tax_host_life_years, 1, 50);
      r.number("declining_balance_factor", s.tax_declining_balance_factor, 0.1, 10,
               "a multiple of the straight-line rate (2 for double declining)");
      s.tax_switch_to_straight_line = r.boolean("switch_to_straight_line");
      const bool declining =
          s.tax_devices_method == "declining_balance" || s.tax_host_method == "declining_balance";
      for (const char* key : {"declining_balance_factor", "switch_to_straight_line"}) {
        if (s.given.count(std::string("tax.") + key) && !declining) {
          r.fail(key, "applies to declining_balance only: set devices_method or host_method");
        }
      }
    } else if (section == "fx") {
      // [fx] USD = 0.92: the plan currency per 1 USD, over the catalog's rate.
      std::vector<std::string> codes;
      for (const auto& entry : child) {
        if (!is_iso_4217_currency(entry.first)) {
          const auto [where, where_line] = s.location_of("fx", entry.first);  // the file or --set
          throw ScenarioError(where, where_line, "[fx] " + entry.first,
                              "expected an ISO 4217 currency code as the key (USD = 0.92: the "
                              "plan currency per 1 USD)");
        }
        codes.push_back(entry.first);
      }
      SectionReader r(child, section, s, codes);
      for (const auto& code : codes) {
        r.number(code, s.fx[code], kMinFxRate, kMaxFxRate,
                 "an exchange rate (the plan currency per 1 " + code + ")", kMinFxRate);
      }
    } else if (section == "site") {
      SectionReader r(child, section, s, kSiteKeys);
      r.money("tariff_per_kwh", s.tariff_per_kwh, kMaxTariffUsdPerKwh, "a price per kWh");
      r.text("tariff", s.tariff);
      r.number("pue", s.pue, 1, 3, "a PUE (facility power / IT power)");
      r.fraction("tariff_trend_per_year", s.tariff_trend_per_year, -0.99, 1,
                 "a fraction per year (0.05 for +5 %)");
      r.text("grid_region", s.grid_region);
      r.number("grid_g_co2e_per_kwh", s.grid_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      if (auto v = r.boolean("green_power")) s.green_power = *v;
      r.number("green_power_g_co2e_per_kwh", s.green_power_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      if (!s.grid_region.empty() && s.grid_g_co2e_per_kwh) {
        r.fail("grid_g_co2e_per_kwh", "give either grid_region or grid_g_co2e_per_kwh, not both");
      }
      if (s.green_power_g_co2e_per_kwh && !s.green_power) {
        r.fail("green_power_g_co2e_per_kwh", "applies with green_power = true only");
      }
    } else if (section == "seller") {
      SectionReader r(child, section, s, kSellerKeys);
      r.text("company", s.seller_company);
      r.text("contact", s.seller_contact);
      r.text("logo", s.seller_logo);
      r.text("terms", s.seller_terms);
    } else if (section == "risk") {
      scenario_detail::read_risk_section(child, s);
    } else if (section == "constraints") {
      scenario_detail::read_constraints_section(child, s);
    } else if (section == "model") {
      s.inline_model = scenario_detail::read_model_section(child, s);
    } else if (section.rfind("device:", 0) == 0) {
      if (!valid_option_id(section.substr(std::string("device:").size()))) {
        throw ScenarioError(file, line, "[" + section + "]",
                            "device ids use ASCII letters, digits, '-', '_' or '.' (at most 64)");
      }
      ScenarioDevice d = scenario_detail::read_device_section(child, section, s);
      if (!device_ids.insert(ascii_lowercase(d.device.id)).second) {
        throw ScenarioError(file, line, "[" + section + "]",
                            "duplicate device id (ids ignore case)");
      }
      s.devices.push_back(std::move(d));
    } else if (section.rfind("option:", 0) == 0) {
      ScenarioOption o;
      o.id = section.substr(7);
      if (!valid_option_id(o.id)) {
        throw ScenarioError(file, line, "[" + section + "]",
                            "option ids use ASCII letters, digits, '-', '_' or '.' (at most 64)");
      }
      // The Inputs sheet lists an option's rows under its id, beside the global sections.
      for (const char* reserved :
           {"scenario", "workload", "site", "tax", "fx", "constraints", "risk", "constants"}) {
        if (o.id == reserved) {
          throw ScenarioError(file, line, "[" + section + "]",
                              "'" + o.id + "' is the name of a section; choose another option id");
        }
      }
      if (!option_ids.insert(o.id).second) {
        throw ScenarioError(file, line, "[" + section + "]", "duplicate option id");
      }
      if (option_ids.size() > static_cast<size_t>(kMaxOptions)) {
        throw ScenarioError(file, line, "[" + section + "]",
                            "more than " + std::to_string(kMaxOptions) +
                                " options, the limit of a scenario; split it into several");
      }
      SectionReader r(child, section, s, kOptionKeys);
      r.text("label", o.label);
      if (s.given.count(section + ".label") &&
          o.label.find_first_not_of(" \t") == std::string::npos) {
        r.fail("label", "empty: give the name a person reads for this option, or leave label out");
      }
      r.choice("kind", o.kind, kOptionKinds);
      r.text("gpu", o.gpu);
      r.text("system", o.system);
      if (o.kind.empty()) {
        r.fail("kind",
               "missing: set kind = buy | rent_hourly | rent_monthly | rent_spot | colocation | "
               "blend | api");
      }
      if (o.kind == "api") {
        if (!o.gpu.empty()) r.fail("gpu", "an api option has no devices (kind = api)");
      } else if (o.gpu.empty() && o.system.empty()) {
        r.fail("gpu", "missing: set gpu to a catalog device id (gputco catalog list gpus)");
      }
      if (auto c = r.integer("count", 1, 4096)) o.count = *c;
      if (auto d = r.integer("nvlink_domain_gpus", 1, 4096)) o.nvlink_domain_gpus = *d;
      r.choice("condition", o.condition, {"new", "used"});
      r.money("price_per_gpu", o.price_per_gpu, kMaxAmountUsd, "a price");
      r.money("host_cost", o.host_cost, kMaxAmountUsd, "a price");
      // The rest of a server (CPUs, memory, fans, PSU losses) draws up to a few kW; above 20 kW
      // a unit slip (mW, or the whole rack's power): the same bound as a [device]'s board power.
      r.number("host_power_w", o.host_power_w, 0, 20'000, "a power in W");
      // A power limit per device, as nvidia-smi -pl sets it: the bounds of a board power.
      r.number("power_limit_w", o.power_limit_w, 1, 20'000, "a power in W");
      r.fraction("residual_fraction", o.residual_fraction, 0, 1,
                 "a fraction of the purchase price");
      r.fraction("maintenance_per_year", o.maintenance_per_year, 0, 1,
                 "a fraction of capex per year (0.05 for 5 %)");
      r.money("rate_per_gpu_hour", o.rate_per_gpu_hour, kMaxRateUsdPerGpuHour,
              "a price per GPU-hour");
      r.money("price_per_month", o.price_per_month, kMaxAmountUsd, "a price per month");
      r.money("setup_fee", o.setup_fee, kMaxAmountUsd, "a price");
      r.text("provider", o.provider);
      r.choice("split", o.split, {"layer", "tensor"});
      r.choice("backend", o.backend, {"cuda", "metal", "rocm", "vulkan", "sycl"});
      r.choice("engine", o.engine, {"llama.cpp", "vllm", "sglang", "tensorrt-llm"});
      r.text("quant", o.quant);
      r.choice("term", o.term, {"on_demand", "spot", "reserved_1y", "reserved_3y"});
      r.number("goodput", o.goodput, 0.01, 1, "a fraction of billed hours (0.9 for 90 %)");
      r.choice("billing", o.billing, {"always_on", "autoscaled"});
      r.integer("min_instances", o.min_instances, 0, 4096);
      r.choice("billing_granularity", o.billing_granularity, {"second", "minute", "hour"});
      r.integer("notice_months", o.notice_months, 0, 120);
      r.integer("warranty_months", o.warranty_months, 0, 600);
      r.fraction("annual_failure_rate", o.annual_failure_rate, 0, 1,
                 "a fraction of devices per year (0.05 for 5 %)");
      r.choice("hosting", o.hosting, {"on_site", "colocation"});
      r.money("colo_per_kw_month", o.colo_per_kw_month, kMaxAmountUsd, "a price per kW per month");
      r.money("colo_per_rack_unit_month", o.colo_per_rack_unit_month, kMaxAmountUsd,
              "a price per rack unit per month");
      r.number("rack_units", o.rack_units, 0, 1000, "rack units");
      // 0 kW would carry no unit (and remove the per-kW fee): refused, as kw_step's 0 is.
      r.number("contracted_kw", o.contracted_kw, 0.01, 1e5, "a power in kW");
      r.number("kw_step", o.kw_step, 0.01, 1000, "a power step in kW");
      if (auto v = r.boolean("power_metered")) o.power_metered = *v;
      r.number("pue", o.pue, 1, 3, "a PUE (facility power / IT power)");
      r.money("tariff_per_kwh", o.tariff_per_kwh, kMaxTariffUsdPerKwh, "a price per kWh");
      r.choice("financing", o.financing, {"cash", "loan", "lease"});
      r.fraction("down_payment", o.down_payment, 0, 1, "a fraction of the purchase (0.2 for 20 %)");
      r.fraction("loan_rate", o.loan_rate, 0, 1, "a fraction per year (0.06 for 6 %)");
      r.integer("loan_term_months", o.loan_term_months, 1, 600);
      r.fraction("lease_rate_per_month", o.lease_rate_per_month, 0, 1,
                 "a fraction of the hardware price per month (0.03 for 3 %)");
      r.integer("lease_term_months", o.lease_term_months, 1, 600);
      r.choice("overflow", o.overflow, {"buy", "rent"});
      r.text("overflow_option", o.overflow_option);
      r.text("api", o.api);
      r.money("input_price_per_million", o.input_price_per_million, kMaxApiUsdPerMillionTokens,
              "a price per million input tokens");
      r.money("output_price_per_million", o.output_price_per_million, kMaxApiUsdPerMillionTokens,
              "a price per million output tokens");
      r.number("requests_per_minute_limit", o.requests_per_minute_limit, 1e-6, 1e12,
               "requests per minute");
      r.number("tokens_per_minute_limit", o.tokens_per_minute_limit, 1e-6, 1e15,
               "tokens per minute");
      r.number("idle_power_w", o.idle_power_w, 0, 1e6, "a power in W");
      if (auto v = r.boolean("powered_off_when_idle")) o.powered_off_when_idle = *v;
      r.text("grid_region", o.grid_region);
      r.number("grid_g_co2e_per_kwh", o.grid_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      scenario_detail::read_cost_lines(r, o);
      r.choice("price_basis", o.price_basis, kPriceBases);
      if (auto v = r.boolean("prefer_fresh_prices")) o.prefer_fresh_prices = *v;
      scenario_detail::read_option_constraints(r, o);
      // Whether the option gives `key`: s.given holds "option:ID.key" for exactly the keys of
      // this section's tree (SectionReader, above, refused any other), so its tree is asked
      // (issue #19: a lookup of a new string in s.given, 50 times an option and value). Not
      // `child` itself: clang before 16 cannot capture a structured binding.
      const pt::ptree& option_keys = child;
      const auto given = [&](const std::string& key) {
        return option_keys.find(key) != option_keys.not_found();
      };
      // colocation and blend are kinds of buy, rent_spot one of rent_hourly: keys follow the
      // kind they are variants of.
      const std::string base_kind = o.kind == "colocation" || o.kind == "blend" ? "buy"
                                    : o.kind == "rent_spot"                     ? "rent_hourly"
                                                                                : o.kind;
      const auto only_for = [&](const std::string& key, const std::string& kind) {
        if (given(key) && base_kind != kind) {
          r.fail(key, "applies to kind = " + kind + " only (this option is " + o.kind + ")");
        }
      };
      for (const char* key : {"condition",
                              "system",
                              "price_per_gpu",
                              "host_cost",
                              "host_power_w",
                              "residual_fraction",
                              "maintenance_per_year",
                              "warranty_months",
                              "annual_failure_rate",
                              "financing",
                              "down_payment",
                              "loan_rate",
                              "loan_term_months",
                              "lease_rate_per_month",
                              "lease_term_months",
                              "overflow",
                              "overflow_option",
                              "tariff_per_kwh",
                              "hosting",
                              "idle_power_w",
                              "powered_off_when_idle"}) {
        only_for(key, "buy");
      }
      for (const char* key : {"api", "input_price_per_million", "output_price_per_million",
                              "requests_per_minute_limit", "tokens_per_minute_limit"}) {
        only_for(key, "api");
      }
      // The PUE of rented capacity is for the energy estimate only (emissions).
      if (given("pue") && base_kind != "buy" && base_kind != "rent_hourly" &&
          base_kind != "rent_monthly") {
        r.fail("pue", "applies to options that run devices (not kind = " + o.kind + ")");
      }
      for (const char* key : {"grid_region", "grid_g_co2e_per_kwh"}) {
        if (given(key) && o.kind == "api") {
          r.fail(key, "does not apply to kind = api (the provider's energy is not published)");
        }
      }
      for (const char* key : {"count", "nvlink_domain_gpus", "power_limit_w", "split", "backend"}) {
        if (given(key) && o.kind == "api") {
          r.fail(key, "does not apply to kind = api (the provider runs the model: no devices)");
        }
      }
      if (!o.grid_region.empty() && o.grid_g_co2e_per_kwh) {
        r.fail("grid_g_co2e_per_kwh", "give either grid_region or grid_g_co2e_per_kwh, not both");
      }
      if (o.kind == "api" && o.api.empty() &&
          (!o.input_price_per_million || !o.output_price_per_million)) {
        r.fail("api",
               "missing: set api to a catalog API price id (gputco catalog list apis), or both "
               "input_price_per_million and output_price_per_million");
      }
      if (given("hosting") && o.kind == "colocation") {
        r.fail("hosting", "kind = colocation is hosting = colocation already");
      }
      for (const char* key : {"colo_per_kw_month", "colo_per_rack_unit_month", "rack_units",
                              "contracted_kw", "kw_step", "power_metered"}) {
        if (given(key) && o.kind != "colocation" && o.hosting != "colocation") {
          r.fail(key,
                 "applies to colocated hardware only: set kind = colocation (or hosting = "
                 "colocation on a buy option)");
        }
      }
      only_for("rate_per_gpu_hour", "rent_hourly");
      only_for("term", "rent_hourly");
      if (given("term") && o.kind == "rent_spot") {
        r.fail("term", "kind = rent_spot is term = spot; use kind = rent_hourly to choose a term");
      }
      only_for("goodput", "rent_hourly");
      if (given("goodput") && o.kind == "rent_hourly" && o.term != "spot") {
        r.fail("goodput", "applies to spot rentals only: set term = spot or kind = rent_spot");
      }
      for (const char* key : {"billing", "min_instances", "billing_granularity"}) {
        only_for(key, "rent_hourly");
        if (given(key) && (o.term == "reserved_1y" || o.term == "reserved_3y")) {
          r.fail(key,
                 "applies to on_demand and spot rentals (a reserved term is billed for "
                 "every hour of the month)");
        }
      }
      for (const char* key : {"min_instances", "billing_granularity"}) {
        if (given(key) && o.billing != "autoscaled") {
          r.fail(key,
                 "applies to billing = autoscaled only (always_on bills the instances of "
                 "the peak for every hour of availability)");
        }
      }
      only_for("price_per_month", "rent_monthly");
      only_for("setup_fee", "rent_monthly");
      only_for("notice_months", "rent_monthly");
      for (const char* key : {"down_payment", "loan_rate", "loan_term_months"}) {
        if (given(key) && o.financing != "loan") r.fail(key, "applies to financing = loan only");
      }
      for (const char* key : {"lease_rate_per_month", "lease_term_months"}) {
        if (given(key) && o.financing != "lease") r.fail(key, "applies to financing = lease only");
      }
      if (o.financing == "lease" && !o.lease_rate_per_month) {
        r.fail("financing",
               "a lease needs lease_rate_per_month (the monthly fee as a fraction "
               "of the hardware price)");
      }
      scenario_detail::check_cost_line_kinds(r, o, base_kind, given);
      if (o.kind == "blend" && o.overflow == "buy") {
        r.fail("overflow", "a blend rents its overflow (own the base load, rent the peaks)");
      }
      s.options.push_back(std::move(o));
    } else {
      // "[Option:a]" or "[options:a]": suggest [option:a], not [option:Option:a].
      const auto colon = section.find(':');
      const std::string id = colon == std::string::npos ? section : section.substr(colon + 1);
      const std::string hint = nearest(section, {"scenario", "workload", "site", "seller", "tax",
                                                 "fx", "constraints", "risk", "option:" + id});
      throw ScenarioError(file, line, "[" + section + "]",
                          "unknown section; expected [scenario], [workload], [site], [seller], "
                          "[tax], [fx], [constraints], [risk] or [option:ID]" +
                              (hint.empty() ? "" : "; did you mean [" + hint + "]?"));
    }
  }

  if (!has_scenario) throw ScenarioError(file, 0, "[scenario]", "missing section");
  if (!has_workload) throw ScenarioError(file, 0, "[workload]", "missing section");
  if (s.as_of.empty()) {
    throw ScenarioError(file, s.line_of("scenario", ""), "[scenario] as_of",
                        "missing: prices are taken as of this date (YYYY-MM-DD)");
  }
  if (s.fx.count(s.currency) > 0) {
    const auto [where, where_line] = s.location_of("fx", s.currency);  // the file or --set
    throw ScenarioError(where, where_line, "[fx] " + s.currency,
                        "the plan's own currency needs no exchange rate; remove this key");
  }
  if (s.start.empty()) s.start = s.as_of.substr(0, 7);
  if (s.name.empty()) s.name = file;
  if (s.inline_model && !s.model.empty()) {
    throw ScenarioError(file, s.line_of("workload", "model"), "[workload] model",
                        "give the model once: here or in the [model] section");
  }
  if (s.model.empty() && !s.inline_model) {
    throw ScenarioError(file, s.line_of("workload", ""), "[workload] model",
                        "missing: set model to a catalog model id (gputco catalog list models)");
  }
  // A model file's own format is its default quant (resolve); a catalog model needs one.
  const std::string model_path =
      (std::filesystem::path(file).parent_path() / std::filesystem::path(s.model)).string();
  if (s.quant.empty() && !s.inline_model && !is_model_path(model_path) && !is_model_path(s.model)) {
    throw ScenarioError(file, s.line_of("workload", ""), "[workload] quant",
                        "missing: set quant, e.g. Q4_K_M (gputco catalog list quants)");
  }
  if (s.options.empty()) {
    throw ScenarioError(file, 0, "[option:ID]", "no options: add at least one [option:ID] section");
  }
  // A demand needs hours to be served in: at 0 hours a day every option would serve it at no
  // cost (rentals bill hours x load = 0) and be recommended for it.
  const bool demand = (s.tokens_per_day && *s.tokens_per_day > 0) ||
                      (s.requests_per_day && *s.requests_per_day > 0);
  // So do days: at 0 days a month the hourly, spot and API options served it at no cost.
  const std::string demand_key = s.tokens_per_day ? "tokens_per_day" : "requests_per_day";
  if (demand && s.given.count("workload.days_per_month") && s.days_per_month <= 0) {
    const auto [where, where_line] = s.location_of("workload", "days_per_month");
    throw ScenarioError(where, where_line, "[workload] days_per_month",
                        "0 days of use a month cannot serve the demand of " + demand_key +
                            "; give the days the demand is served on");
  }
  if (demand && s.hours_per_day <= 0) {
    const auto [where, where_line] = s.location_of("workload", "hours_per_day");
    throw ScenarioError(where, where_line, "[workload] hours_per_day",
                        "0 hours of use a day cannot serve the demand of " + demand_key +
                            "; give the hours the demand is served in");
  }
  // Growth compounds over the horizon: the last month's demand must stay a number of units
  // one can plan (the engine's limit, named here with the key and its line).
  if (const double factor = std::pow(1.0 + s.growth_per_month, s.horizon_months);
      !std::isfinite(factor) || factor > 1e6) {
    std::ostringstream problem;
    problem << "growth of " << s.growth_per_month
            << " a month over horizon_months = " << s.horizon_months
            << " multiplies the demand by more than a million; lower one of them";
    const auto [where, where_line] = s.location_of("workload", "growth_per_month");
    throw ScenarioError(where, where_line, "[workload] growth_per_month", problem.str());
  }
  warn_compounding_trends(s);
  return s;
}

Scenario parse_scenario(const ScenarioSource& source,
                        const std::vector<ScenarioOverride>& overrides) {
  return parse_scenario(read_scenario_tree(source), overrides);
}

Scenario load_scenario(const std::string& path, const std::vector<ScenarioOverride>& overrides) {
  return parse_scenario(read_scenario_source(path), overrides);
}

}  // namespace gputco
