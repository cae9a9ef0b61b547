#include "scenarios/resolve.hpp"
#include "scenarios/resolver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/money/timeline.hpp"
#include "engine/serving/serving_profile.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/model_files.hpp"
#include "scenarios/price_checks.hpp"
#include "scenarios/quote.hpp"

namespace gputco::resolve_detail {

ResolvedScenario Resolver::run() {
  r_.file = s_.file;
  r_.warnings = s_.warnings;
  r_.name = s_.name;
  r_.customer = s_.customer;
  r_.quote_id = s_.quote_id;
  r_.paper = s_.paper;
  r_.valid_days = s_.valid_days;
  r_.start = s_.start;
  r_.as_of = s_.as_of;
  r_.max_price_age_days = s_.max_price_age_days;
  resolve_scenario();
  check_money_limits();
  resolve_tax();
  resolve_workload();
  resolve_site();
  resolve_scenario_constraints();
  resolve_risk();
  refuse_inline_devices_named_as_the_catalogs();
  for (const auto& o : s_.options) resolve_option(o);
  resolve_risk_fx();
  require_request_shape();
  check_spot_above_on_demand();
  // [fx] rates no catalog amount needed are listed all the same: the file's values show.
  for (const auto& [code, rate] : s_.fx) {
    if (fx_rates_.count(code) == 0) fx_rate_to_plan(code, "fx", code);
  }
  check_fx_dates();
  resolve_baseline();
  resolve_overflow_links();
  resolve_quote(s_, r_);
  require_api_volume();
  // Capacities and overflow rates, so that callers of option_cash_flow get complete inputs.
  prepare_plan_inputs(r_.plan_inputs);
  return std::move(r_);
}

void Resolver::fail(const std::string& section, const std::string& key,
                    const std::string& problem) const {
  const auto [file, line] = s_.location_of(section, key);
  throw ScenarioError(file, line, "[" + section + "] " + key, problem);
}

void Resolver::unknown(const std::string& section, const std::string& key, const std::string& what,
                       const std::string& id, const std::vector<std::string>& known,
                       const std::string& list) const {
  fail(section, key,
       "unknown " + what + " '" + id + "'" + did_you_mean(id, known) + " (" + list + ")");
}

std::string Resolver::file_section(const std::string& section) {
  if (section == "scenario" || section == "workload" || section == "site" || section == "tax" ||
      section == "fx" || section == "constraints" || section == "risk") {
    return section;
  }
  return "option:" + section;
}

void Resolver::number(const std::string& section, const std::string& key, const std::string& label,
                      double value, const std::string& unit, std::string provenance) {
  if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
  InputRow row{section, key, label, value, "", unit, std::move(provenance)};
  // A converted amount: the row keeps the published amount when it is what was converted.
  if (const auto c = std::exchange(pending_conversion_, std::nullopt);
      c && std::abs(c->amount * c->rate - value) <= 1e-12 * std::max(1.0, std::abs(value))) {
    row.published_amount = c->amount;
    row.published_currency = c->currency;
  }
  r_.inputs.push_back(std::move(row));
}

void Resolver::text(const std::string& section, const std::string& key, const std::string& label,
                    const std::string& value, std::string provenance) {
  if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
  pending_conversion_.reset();
  r_.inputs.push_back({section, key, label, std::nullopt, value, "", std::move(provenance)});
}

std::string Resolver::source(const std::string& what, double amount, const std::string& currency,
                             const std::string& unit, const Provenance& p) {
  const int age = days_between(p.observed_on, s_.as_of);
  const bool stale = age > s_.max_price_age_days;
  r_.sources.push_back({what, amount, currency, unit, p.observed_on, p.source, age, stale});
  return source_provenance(p);
}

std::string Resolver::source_provenance(const Provenance& p) const {
  const bool stale = days_between(p.observed_on, s_.as_of) > s_.max_price_age_days;
  const bool from_book = !p.book.empty() && p.book != kBuiltinBook;
  return "catalog: " + p.source + ", observed " + p.observed_on +
         (from_book ? ", price book '" + p.book + "'" : "") + (stale ? " (stale)" : "");
}

void Resolver::warn_currency_overridden() {
  // --set scenario.currency changes the currency the file's typed amounts are read in; it
  // converts none of them (newcomer7: host_cost = 1500 meant EUR became 1,500 JPY, silently).
  const auto origin = s_.origins.find("scenario.currency");
  if (origin == s_.origins.end() || origin->second.file.rfind("--set", 0) != 0) return;
  std::vector<std::string> typed;
  for (const ScenarioMoneyLimit& amount : s_.money_limits) {
    if (s_.origins.count(amount.section + "." + amount.key) > 0) continue;  // also --set
    typed.push_back("[" + amount.section + "] " + amount.key + " = " + amount.text);
  }
  if (typed.empty()) return;
  std::string listed;
  for (size_t i = 0; i < typed.size() && i < 3; ++i) listed += (i > 0 ? ", " : "") + typed[i];
  if (typed.size() > 3) listed += fmt::format(" and {} more", typed.size() - 3);
  r_.warnings.push_back(fmt::format(
      "{} sets the plan currency to {}: the amounts typed in the scenario file are read in {}, "
      "not converted ({}); convert them too (--set), or give the currency in the file",
      origin->second.provenance, s_.currency, s_.currency, listed));
}

void Resolver::resolve_scenario() {
  auto& f = r_.plan_inputs.finance;
  f.horizon_months = s_.horizon_months;
  f.discount_rate_per_year = s_.discount_rate;
  f.currency = s_.currency;
  text("scenario", "name", "Scenario", s_.name);
  text("scenario", "currency", "Currency", s_.currency);
  warn_currency_overridden();
  text("scenario", "as_of", "Prices as of", s_.as_of);
  text("scenario", "start", "First month", s_.start);
  number("scenario", "horizon_months", "Horizon", s_.horizon_months, "months");
  number("scenario", "discount_rate", "Discount rate", s_.discount_rate, "per year");
  number("scenario", "max_price_age_days", "Stale after", s_.max_price_age_days, "days");
  text("scenario", "price_basis", "Which catalog price (price_basis)", s_.price_basis,
       given("scenario", "price_basis")
           ? ""
           : "default: street (observed retail prices, else the list price; the cheapest "
             "rental offer)");
  number("scenario", "prefer_fresh_prices", "Fresh prices before cheaper stale ones (1 = yes)",
         s_.prefer_fresh_prices ? 1.0 : 0.0, "flag",
         given("scenario", "prefer_fresh_prices")
             ? ""
             : "default: true (a price older than max_price_age_days is taken only when no "
               "fresh one exists)");
  const auto start = parse_month(s_.start);
  f.start_year = static_cast<int>(start->year());
  f.start_month = static_cast<int>(static_cast<unsigned>(start->month()));
  // Every month is priced as of as_of: a start more than a year before it plans the past at
  // today's prices, one more than two years after it plans a future at prices that old.
  if (const auto priced = parse_month(s_.as_of.substr(0, 7))) {
    const int months_after = (f.start_year - static_cast<int>(priced->year())) * 12 +
                             f.start_month -
                             static_cast<int>(static_cast<unsigned>(priced->month()));
    if (months_after < -kMonthsPerYear || months_after > 2 * kMonthsPerYear) {
      r_.warnings.push_back(
          "the plan starts " + s_.start + ", " + std::to_string(std::abs(months_after)) +
          " months " + (months_after < 0 ? "before" : "after") + " its prices (as_of " + s_.as_of +
          "): every month is priced at that date's catalog; set start or as_of to "
          "the period the plan is for");
    }
  }
  f.rent_trend_per_year = s_.rent_trend_per_year;
  number("scenario", "rent_trend_per_year", "Hourly rental rates change per year",
         f.rent_trend_per_year, "fraction per year",
         given("scenario", "rent_trend_per_year") ? "" : "default: 0 (rates stay as quoted)");
  f.api_price_trend_per_year = s_.api_price_trend_per_year;
  bool any_api = false;
  for (const auto& o : s_.options) any_api = any_api || o.kind == "api";
  if (any_api || given("scenario", "api_price_trend_per_year")) {
    number("scenario", "api_price_trend_per_year", "Per-token API prices change per year",
           f.api_price_trend_per_year, "fraction per year",
           given("scenario", "api_price_trend_per_year")
               ? ""
               : "default: 0 (API prices stay as quoted)");
  }
  f.vat_rate = s_.vat_rate;
  f.vat_reclaimable = s_.vat_reclaimable;
  number("scenario", "vat_rate", "VAT rate", f.vat_rate, "fraction",
         given("scenario", "vat_rate") ? "" : "default: 0 (amounts without VAT)");
  number("scenario", "vat_reclaimable", "VAT reclaimable (1 = yes)", f.vat_reclaimable ? 1.0 : 0.0,
         "flag",
         given("scenario", "vat_reclaimable")
             ? ""
             : "default: true (a business reclaims input VAT: costs exclude it)");
  f.useful_life_months = s_.useful_life_months;
  number("scenario", "useful_life_months", "Useful life (straight-line depreciation)",
         f.useful_life_months, "months",
         given("scenario", "useful_life_months")
             ? ""
             : "default: 36 months: the two-to-three-year horizon a finance team plans "
               "hardware for (DOMAIN 'Who uses it', E6), the common straight-line life of "
               "servers");
}

bool Resolver::given(const std::string& section, const std::string& key) const {
  return s_.given.count(section + "." + key) > 0;
}

ResolvedModel Resolver::resolve_model() const {
  if (s_.inline_model) return inline_model();
  const std::string base_dir = std::filesystem::path(s_.file).parent_path().string();
  try {
    return resolve_model_argument(s_.model, catalog_, base_dir);
  } catch (const UnknownModelError& e) {
    fail("workload", "model", e.what());
  } catch (const ModelFileError& e) {
    fail("workload", "model", e.what());
  }
}

ResolvedModel Resolver::inline_model() const {
  std::set<std::string> read;
  std::optional<ModelFile> file;
  std::string problem;
  try {
    file = model_from_config_text(s_.inline_model->config_json, "[model]", &read);
  } catch (const ModelFileError& e) {
    problem = e.problem();
  }
  const std::vector<std::string> known(read.begin(), read.end());
  for (const auto& [given_key, yes] : s_.given) {
    if (given_key.rfind("model.", 0) != 0) continue;
    const std::string key = given_key.substr(std::string("model.").size());
    if (key == "name" || read.count(key) > 0) continue;
    const std::string hint = nearest(key, known);
    // A failed read looked at only some keys: a key it did not reach is a typo only when it
    // is close to one it read.
    if (file || !hint.empty()) {
      fail("model", key,
           "not a config.json field gputco reads" +
               (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
    }
  }
  if (!file) {
    // "num_hidden_layers: missing (the layer count)": the key, then its problem.
    const auto colon = problem.find(": ");
    if (colon == std::string::npos) fail("model", "", problem);
    // "rope_scaling.factor: ...": the field inside a key's JSON value is at that key's line.
    const std::string field = problem.substr(0, colon);
    const auto [where, line] = s_.location_of("model", field.substr(0, field.find_first_of(".[")));
    throw ScenarioError(where, line, "[model] " + field, problem.substr(colon + 2));
  }
  file->model.id = s_.inline_model->name;
  file->model.name = s_.inline_model->name;
  return ResolvedModel{std::move(file->model), std::move(file->native_quant),
                       "scenario file [model]", std::move(file->notes)};
}

void Resolver::refuse_inline_devices_named_as_the_catalogs() const {
  if (s_.devices.empty()) return;
  // One look-up per inline device in a set of the catalog's ids (ids ignore case); an alias
  // is caught where an option names it (option_device).
  std::set<std::string> catalog_ids;
  for (const Device& d : catalog_.devices()) catalog_ids.insert(ascii_lowercase(d.id));
  for (const ScenarioDevice& d : s_.devices) {
    if (catalog_ids.count(ascii_lowercase(d.device.id)) == 0) continue;
    refuse_shadowing(d);
  }
}

void Resolver::refuse_shadowing(const ScenarioDevice& d) const {
  // An inline device under a catalog id took the catalog's place for `gpu = ID` but not for
  // a catalog system of that device, nor in messages: one id, two devices, silently.
  const std::string section = "device:" + d.device.id;
  const auto [file, line] = s_.location_of(section, "");
  throw ScenarioError(file, line, "[" + section + "]",
                      "'" + d.device.id +
                          "' is a device of the catalog (gputco catalog list gpus): give the "
                          "device you describe an id of its own, e.g. [device:my-" +
                          d.device.id + "]");
}

const ScenarioDevice* Resolver::inline_device(const std::string& id) const {
  for (const ScenarioDevice& d : s_.devices) {
    if (same_id(d.device.id, id)) return &d;
  }
  return nullptr;
}

Quant Resolver::resolve_quant(const ResolvedModel& model) const {
  if (model.native_quant && (s_.quant.empty() || same_id(s_.quant, model.native_quant->id))) {
    return *model.native_quant;
  }
  if (s_.quant.empty()) {
    fail("workload", "quant", "missing: set quant, e.g. Q4_K_M (gputco catalog list quants)");
  }
  const auto quant = catalog_.quant(s_.quant);
  if (!quant) {
    unknown("workload", "quant", "quant", s_.quant,
            ids_of(catalog_.quants(), [](const Quant& q) { return q.id; }),
            "gputco catalog list quants");
  }
  return *quant;
}

std::string Resolver::carbon_source(const GridCarbon& g) {
  const std::string what = "grid carbon " + g.id + " (" + std::to_string(g.data_year) + ")";
  for (const auto& row : r_.sources) {
    if (row.what == what) {
      return "catalog: " + g.provenance.source + ", observed " + g.provenance.observed_on;
    }
  }
  return source(what, g.g_co2e_per_kwh, "", "g CO2e per kWh, " + g.basis, g.provenance);
}

void Resolver::resolve_site_carbon(const std::string& tariff_region) {
  auto& site = r_.plan_inputs.site;
  if (s_.green_power) {
    site.grid_g_co2e_per_kwh =
        s_.green_power_g_co2e_per_kwh.value_or(kDefaultGreenPowerGCo2ePerKwh);
    number("site", "green_power_g_co2e_per_kwh", "Green-power contract intensity",
           *site.grid_g_co2e_per_kwh, "g CO2e/kWh",
           s_.green_power_g_co2e_per_kwh
               ? ""
               : "default: 0 g CO2e/kWh, market-based (GHG Protocol Scope 2: a green-power "
                 "contract carries its generation's rate); green_power = true " +
                     s_.provenance("site", "green_power"));
    return;
  }
  if (s_.grid_g_co2e_per_kwh) {
    site.grid_g_co2e_per_kwh = *s_.grid_g_co2e_per_kwh;
    number("site", "grid_g_co2e_per_kwh", "Grid carbon intensity", *site.grid_g_co2e_per_kwh,
           "g CO2e/kWh");
    return;
  }
  const std::string region = !s_.grid_region.empty() ? s_.grid_region : tariff_region;
  if (region.empty()) return;
  const auto g = catalog_.grid_carbon(region, s_.as_of);
  if (!g) {
    if (s_.grid_region.empty()) return;  // the tariff's region has none: unknown
    unknown("site", "grid_region", "grid region (as of " + s_.as_of + ")", region,
            ids_of(catalog_.grid_carbons(s_.as_of), [](const GridCarbon& x) { return x.id; }),
            "gputco catalog list carbon");
  }
  site.grid_g_co2e_per_kwh = g->g_co2e_per_kwh;
  std::string provenance = carbon_source(*g);
  if (s_.grid_region.empty())
    provenance = "default: the tariff's region '" + region + "'; " + provenance;
  number("site", "grid_g_co2e_per_kwh", "Grid carbon intensity (" + g->name + ")",
         g->g_co2e_per_kwh, "g CO2e/kWh", provenance);
}

void Resolver::resolve_site() {
  auto& site = r_.plan_inputs.site;
  site.pue = s_.pue;
  site.tariff_trend_per_year = s_.tariff_trend_per_year;
  number("site", "tariff_trend_per_year", "Electricity price change per year",
         site.tariff_trend_per_year, "fraction per year",
         given("site", "tariff_trend_per_year") ? "" : "default: 0 (the tariff stays)");
  if (s_.tariff_per_kwh) {
    site.tariff_per_kwh = *s_.tariff_per_kwh;
    number("site", "tariff_per_kwh", "Electricity tariff", site.tariff_per_kwh,
           s_.currency + "/kWh");
  } else if (!s_.tariff.empty()) {
    const auto t = catalog_.tariff(s_.tariff, s_.as_of);
    if (!t) {
      unknown("site", "tariff", "tariff (as of " + s_.as_of + ")", s_.tariff,
              ids_of(catalog_.tariffs(s_.as_of), [](const Tariff& x) { return x.id; }),
              "gputco catalog list tariffs");
    }
    std::string provenance =
        source("tariff " + t->id, t->amount_per_kwh, t->currency, "per kWh", t->provenance);
    site.tariff_per_kwh = convert(t->amount_per_kwh, t->currency, provenance, "site", "tariff",
                                  site.tariff_converted_from);
    number("site", "tariff_per_kwh", "Electricity tariff (" + t->id + ")", site.tariff_per_kwh,
           s_.currency + "/kWh", provenance);
    tariff_region_ = t->region;
  } else {
    bool owned = false;
    for (const auto& o : s_.options) owned = owned || is_owned_kind(o.kind);
    if (owned) {
      fail("site", "tariff_per_kwh",
           "missing: owned hardware needs an electricity price; set tariff_per_kwh or tariff "
           "(a catalog id: gputco catalog list tariffs)");
    }
    site.tariff_per_kwh = 0;
  }
  number("site", "pue", "PUE", site.pue, "ratio",
         s_.given.count("site.pue") ? "" : "default: 1.0 (no cooling overhead counted)");
  resolve_site_carbon(tariff_region_);
}

Device Resolver::device_of(const ScenarioOption& o, const std::string& section) {
  if (system_) {
    const System& sys = system_->system;
    const auto device = catalog_.device(sys.device_id);
    if (!device) {
      fail(section, "system",
           "catalog system '" + sys.id + "' holds device '" + sys.device_id +
               "', which the catalog lacks; give gpu (and count) instead of system");
    }
    return *device;
  }
  const auto device = catalog_.device(o.gpu);
  if (const ScenarioDevice* described = inline_device(o.gpu)) {
    if (device) refuse_shadowing(*described);  // an alias of a catalog device
    return described->device;
  }
  if (!device) {
    // The finder lists systems beside devices: `gpu = hgx-h100-8x-ib` means the system.
    if (const auto sys = catalog_.system(o.gpu)) {
      fail(section, "gpu",
           "'" + o.gpu + "' is a catalog system (" + sys->name + ": " +
               std::to_string(sys->device_count) + " x " + sys->device_id +
               "), not a device; use system = " + sys->id +
               (is_owned_kind(o.kind) ? std::string()
                                      : " on a buy option, or gpu = " + sys->device_id +
                                            " with count = " + std::to_string(sys->device_count)));
    }
    std::vector<std::string> ids = ids_of(catalog_.devices(), [](const Device& d) { return d.id; });
    for (const ScenarioDevice& d : s_.devices) ids.push_back(d.device.id);
    unknown(section, "gpu", "device", o.gpu, ids,
            "gputco catalog list gpus, or describe it in a [device:ID] section");
  }
  return *device;
}

void Resolver::resolve_option(const ScenarioOption& o) {
  const std::string section = "option:" + o.id;
  OptionInputs oi;
  oi.id = o.id;
  if (o.kind == "api") {
    oi.kind = OptionKind::api;
    text(o.id, "kind", "Kind", o.kind);
    resolve_api(o, oi, section);
    resolve_cost_lines(o, oi);
    resolve_option_constraints(o, oi);
    r_.plan_inputs.options.push_back(std::move(oi));
    return;
  }
  system_.reset();
  if (!o.system.empty()) resolve_system(o, oi, section);
  oi.device = device_of(o, section);
  oi.kind = is_owned_kind(o.kind)                              ? OptionKind::buy
            : o.kind == "rent_hourly" || o.kind == "rent_spot" ? OptionKind::rent_hourly
                                                               : OptionKind::rent_monthly;
  offer_region_.clear();
  oi.condition = o.condition == "used" ? Condition::used : Condition::new_unit;
  oi.split = o.split.empty() ? SplitMode::layer : *parse_split_mode(o.split);
  const ScenarioDevice* described = inline_device(o.gpu);
  const std::string backend = !o.backend.empty() ? o.backend : described ? described->backend : "";
  oi.backend = backend.empty() ? default_backend(oi.device) : *parse_backend(backend);
  if (const std::string why = backend_unsupported_reason(oi.backend, oi.device); !why.empty()) {
    fail(section, "backend", why);
  }
  const std::string engine = !o.engine.empty() ? o.engine : s_.engine;
  oi.engine = engine.empty() ? ServingEngine::llama_cpp : *parse_serving_engine(engine);
  text(o.id, "kind", "Kind", o.kind);
  resolve_power_limit(o, oi, section);
  if (system_) {
    const System& sys = system_->system;
    text(o.id, "system", "Catalog system",
         fmt::format("{} ({}): {} x {}; {}", sys.id, sys.name, sys.device_count, sys.device_id,
                     sys.host));
  }
  if (!o.engine.empty()) text(o.id, "engine", "Serving engine", o.engine);
  if (!o.quant.empty()) {
    const auto quant = catalog_.quant(o.quant);
    if (!quant) {
      unknown(section, "quant", "quant", o.quant,
              ids_of(catalog_.quants(), [](const Quant& q) { return q.id; }),
              "gputco catalog list quants");
    }
    oi.quant = *quant;
    text(o.id, "quant", "Weight format (the option's own)", quant->id);
  }
  text(o.id, "gpu", "Device", oi.device.id + " (" + oi.device.name + ")",
       system_ ? "catalog system " + system_->system.id : "");
  if (!o.price_basis.empty()) {
    text(o.id, "price_basis", "Which catalog price (price_basis)", o.price_basis);
  }
  if (o.prefer_fresh_prices) {
    number(o.id, "prefer_fresh_prices", "Fresh prices before cheaper stale ones (1 = yes)",
           *o.prefer_fresh_prices ? 1.0 : 0.0, "flag");
  }

  const auto& p = r_.plan_inputs;
  warn_format_llama_cpp_cannot_run(oi.quant.value_or(p.quant).id, engine.empty(), oi);
  FitRequest request{p.model, oi.quant.value_or(p.quant), p.workload.context_tokens,
                     p.workload.concurrent_streams, p.workload.kv_cache};
  const int needed = devices_needed(request, oi.device, 64, p.memory_policy);

  switch (oi.kind) {
    case OptionKind::buy:
      resolve_count(o, oi, needed);
      resolve_buy(o, oi, section);
      break;
    case OptionKind::rent_hourly:
      resolve_count(o, oi, needed);
      resolve_hourly(o, oi, section);
      break;
    case OptionKind::rent_monthly:
      resolve_monthly(o, oi, section, needed);
      break;
    case OptionKind::api:
      break;
  }
  resolve_interconnect(o, oi, section);
  resolve_option_energy(o, oi, section);
  resolve_cost_lines(o, oi);
  resolve_option_constraints(o, oi);
  r_.plan_inputs.options.push_back(std::move(oi));
}

void Resolver::warn_format_llama_cpp_cannot_run(const std::string& quant_id, bool engine_defaulted,
                                                OptionInputs& oi) const {
  if (oi.engine != ServingEngine::llama_cpp || oi.kind == OptionKind::api) return;
  const WeightFormat format = weight_format(quant_id);
  if (format != WeightFormat::fp8 && format != WeightFormat::nvfp4 &&
      format != WeightFormat::int4_awq) {
    return;
  }
  // engine/serving/serving_profile.cpp format_support refuses this pair in `gputco throughput`; a
  // plan keeps its llama.cpp estimate (the decode model at the format's bytes per weight) so
  // that a scenario without request lengths still plans, and says so.
  oi.input_warnings.push_back(
      "engine: " + std::string(engine_defaulted ? "llama.cpp (the default engine)" : "llama.cpp") +
      " runs GGUF files only, and " + quant_id +
      " is a checkpoint format of vLLM, SGLang and TensorRT-LLM: the speed is llama.cpp's decode "
      "model at " +
      quant_id +
      "'s bytes per weight, a stand-in; set engine = vllm (with prompt_tokens_per_request and "
      "output_tokens_per_request in [workload]) for a serving estimate, or a GGUF quant such as "
      "Q8_0");
}

void Resolver::resolve_cost_lines(const ScenarioOption& o, OptionInputs& oi) {
  const bool devices = oi.kind != OptionKind::api;
  const bool owned = oi.kind == OptionKind::buy;
  const bool colocated = owned && oi.hosting == Hosting::colocation;
  const std::string money = s_.currency;
  const auto line = [&](const char* key, const std::optional<double>& value,
                        std::optional<double>& out, const std::string& label,
                        const std::string& unit) {
    out = value;
    if (value) {
      number(o.id, key, label, *value, unit);
      return;
    }
    r_.inputs.push_back({o.id, key, label, std::nullopt, "", unit,
                         "not entered: counted as 0 (enter a value to include it)", true});
  };
  CostLines& l = oi.cost_lines;
  line("staff_hours_per_month", o.staff_hours_per_month, l.staff_hours_per_month,
       "Staff and operations: hours a month", "h/month");
  line("staff_rate_per_hour", o.staff_rate_per_hour, l.staff_rate_per_hour,
       "Staff and operations: rate per hour", money + "/h");
  line("staff_fte", o.staff_fte, l.staff_fte, "Staff and operations: share of full-time employees",
       "FTE");
  line("staff_salary_per_year", o.staff_salary_per_year, l.staff_salary_per_year,
       "Staff and operations: cost per full-time employee a year (fully loaded)",
       money + "/FTE/year");
  line("licence_per_month", o.licence_per_month, l.licence_per_month, "Software licences per month",
       money + "/month");
  line("licence_per_year", o.licence_per_year, l.licence_per_year, "Software licences per year",
       money + "/year");
  if (devices) {
    line("licence_per_gpu_per_year", o.licence_per_gpu_per_year, l.licence_per_gpu_per_year,
         "Software licences per device a year", money + "/device/year");
  }
  line("support_per_month", o.support_per_month, l.support_per_month, "Support contracts per month",
       money + "/month");
  line("support_per_year", o.support_per_year, l.support_per_year, "Support contracts per year",
       money + "/year");
  if (devices) {
    line("support_per_gpu_per_year", o.support_per_gpu_per_year, l.support_per_gpu_per_year,
         "Support contracts per device a year", money + "/device/year");
  }
  if (owned) {
    line("insurance_per_year", o.insurance_per_year, l.insurance_per_year,
         "Insurance per year (of the hardware's purchase value)", "fraction per year");
  }
  if (colocated) {
    line("colo_extras_per_month", o.colo_extras_per_month, l.colo_extras_per_month,
         "Colocation extras per unit a month (remote hands, cross-connects, bandwidth)",
         money + "/unit/month");
  }
}

void Resolver::resolve_option_energy(const ScenarioOption& o, OptionInputs& oi,
                                     const std::string& section) {
  const double devices_idle_w =
      kDefaultIdleFractionOfBoardPower * oi.count * oi.device.board_power_w;
  if (oi.kind == OptionKind::buy) {
    // A service that must be reachable every hour of the month (availability = 24x7, the
    // hours an always-on rental is billed for) keeps the hardware that serves it powered:
    // the owned unit stays on all month and its unit-hours not at load draw idle power,
    // unless the file says otherwise.
    const WorkloadInputs& w = r_.plan_inputs.workload;
    const bool around_the_clock = w.availability == Availability::around_the_clock;
    oi.powered_off_when_idle = o.powered_off_when_idle.value_or(!around_the_clock);
    number(o.id, "powered_off_when_idle", "Switched off when not serving (1 = yes)",
           oi.powered_off_when_idle ? 1.0 : 0.0, "flag",
           o.powered_off_when_idle ? ""
           : around_the_clock
               ? "default with availability = 24x7: false (reachable every hour, so on all "
                 "month: the hours not at load draw idle power)"
               : "default: true (only the hours at load draw power; set false for a machine "
                 "that stays on)");
    // Off outside the hours of use, yet reachable around the clock: say so, unless the hours
    // of use already fill every hour of the month.
    const FinanceInputs& f = r_.plan_inputs.finance;
    const bool hours_fill_month =
        w.hours_per_day * days_of_use(w, f, 1) >= hours_in_month(w, f, 1) * (1 - 1e-9);
    if (around_the_clock && o.powered_off_when_idle && *o.powered_off_when_idle &&
        !hours_fill_month) {
      r_.warnings.push_back(
          "option " + o.id +
          ": powered_off_when_idle = true with availability = 24x7: the unit is counted as "
          "switched off outside the hours of use (no idle energy) although the service must be "
          "reachable around the clock, while the rentals are billed for every hour; remove the "
          "key (or set it false) to count it on all month");
    }
    oi.idle_power_w =
        o.idle_power_w.value_or(devices_idle_w + kDefaultIdleFractionOfHostPower * oi.host_power_w);
    number(
        o.id, "idle_power_w", "Idle power of the unit (devices + host)", oi.idle_power_w, "W",
        o.idle_power_w
            ? ""
            // The option's own figures, and the measured example only where it is this
            // device (issue #37: an RTX 3090's idle draw was printed on an H200's row).
            : fmt::format(
                  "default: 10 % of board power per device ({} x {:g} W) + 50 % of "
                  "host power ({:g} W) (assumption{})",
                  oi.count, oi.device.board_power_w, oi.host_power_w,
                  oi.device.id == "rtx-3090" ? "; an RTX 3090 idles at 15-30 W of its 350 W" : ""));
  } else {
    oi.idle_power_w = devices_idle_w;
    const bool all_month = oi.kind == OptionKind::rent_monthly || term_months(oi.term) > 0;
    if (all_month) {
      number(o.id, "idle_power_w", "Idle power of the rented devices (energy estimate)",
             oi.idle_power_w, "W", "default: 10 % of board power per device (assumption)");
    }
    if (o.pue) {
      oi.pue = *o.pue;
      number(o.id, "pue", "Data centre PUE (energy estimate)", *oi.pue, "ratio");
    } else {
      oi.pue = kDefaultDataCentrePue;
      number(o.id, "pue", "Data centre PUE (energy estimate)", *oi.pue, "ratio",
             "default: 1.58, the average PUE of the Uptime Institute Global Data Center "
             "Survey 2023");
    }
  }
  // Carbon: the option's own intensity or region, else (rentals) the offer's region.
  if (o.grid_g_co2e_per_kwh) {
    oi.grid_g_co2e_per_kwh = *o.grid_g_co2e_per_kwh;
    number(o.id, "grid_g_co2e_per_kwh", "Grid carbon intensity where it runs",
           *oi.grid_g_co2e_per_kwh, "g CO2e/kWh");
    return;
  }
  const bool own_region = !o.grid_region.empty();
  const std::string region = own_region ? o.grid_region : offer_region_;
  if (region.empty()) {
    if (oi.kind != OptionKind::buy) {
      oi.carbon_unknown_reason =
          "unknown: the rate was given without a provider region (set grid_region or "
          "grid_g_co2e_per_kwh on the option)";
    }
    return;
  }
  const auto g = catalog_.grid_carbon(region, s_.as_of);
  if (!g) {
    if (own_region) {
      unknown(section, "grid_region", "grid region (as of " + s_.as_of + ")", region,
              ids_of(catalog_.grid_carbons(s_.as_of), [](const GridCarbon& x) { return x.id; }),
              "gputco catalog list carbon");
    }
    oi.carbon_unknown_reason =
        "unknown: the catalog has no grid carbon intensity for the "
        "provider's region '" +
        region + "'";
    text(o.id, "grid_region", "Provider region (no grid intensity known)", region,
         "catalog offer region");
    return;
  }
  oi.grid_g_co2e_per_kwh = g->g_co2e_per_kwh;
  std::string provenance = carbon_source(*g);
  if (!own_region) provenance = "the offer's region '" + region + "'; " + provenance;
  number(o.id, "grid_g_co2e_per_kwh", "Grid carbon intensity where it runs (" + g->name + ")",
         g->g_co2e_per_kwh, "g CO2e/kWh", provenance);
}

void Resolver::resolve_count(const ScenarioOption& o, OptionInputs& oi, int needed) {
  if (system_) {
    oi.count = system_->system.device_count;  // a typed count that differs was refused
    number(o.id, "count", "Devices", oi.count, "devices",
           o.count ? "" : "catalog system " + system_->system.id);
  } else if (o.count) {
    oi.count = *o.count;
    number(o.id, "count", "Devices", oi.count, "devices");
  } else {
    oi.count = needed > 0 ? needed : 1;
    number(o.id, "count", "Devices", oi.count, "devices",
           needed > 0 ? "derived: the fewest devices that hold the model"
                      : "default: 1 (no count up to 64 holds the model)");
  }
}

void Resolver::resolve_overflow_links() {
  auto& options = r_.plan_inputs.options;
  for (size_t i = 0; i < options.size(); ++i) {
    const ScenarioOption& o = s_.options[i];
    OptionInputs& oi = options[i];
    if (oi.kind != OptionKind::buy) continue;
    const std::string section = "option:" + o.id;
    const std::string overflow = o.kind == "blend"     ? "rent"
                                 : !o.overflow.empty() ? o.overflow
                                                       : s_.overflow;
    oi.blend = o.kind == "blend";
    oi.overflow = overflow == "rent" ? Overflow::rent : Overflow::add_units;
    text(o.id, "overflow", "When the demand outgrows it", overflow == "rent" ? "rent" : "buy",
         o.kind == "blend"     ? "kind = blend: own the base load, rent the peaks"
         : !o.overflow.empty() ? ""
                               : s_.provenance("workload", "overflow"));
    if (oi.overflow != Overflow::rent) continue;
    const bool own_link = !o.overflow_option.empty();
    oi.overflow_option_id = own_link ? o.overflow_option : s_.overflow_option;
    const std::string where = own_link ? section : "workload";
    if (oi.overflow_option_id.empty()) {
      fail(section, "overflow_option",
           "missing: name the rent_hourly option that carries the overflow");
    }
    const OptionInputs* rental = nullptr;
    std::vector<std::string> ids;
    for (const auto& other : options) {
      ids.push_back(other.id);
      if (other.id == oi.overflow_option_id) rental = &other;
    }
    if (rental == nullptr) {
      unknown(where, "overflow_option", "option", oi.overflow_option_id, ids,
              "an [option:ID] of this file");
    }
    if (rental->kind != OptionKind::rent_hourly || term_months(rental->term) > 0) {
      fail(where, "overflow_option",
           "the overflow goes to an hourly rental billed by use (rent_hourly on_demand or "
           "spot); '" +
               rental->id + "' is not one");
    }
    text(o.id, "overflow_option", "Overflow rented from", oi.overflow_option_id,
         own_link ? "" : s_.provenance("workload", "overflow_option"));
    // The overflow runs on the rental: a constraint that excludes it excludes this option.
    if (!rental->excluded_reason.empty()) {
      const std::string reason = "its overflow is rented from '" + rental->id +
                                 "', which is excluded (" + rental->excluded_reason + ")";
      oi.excluded_reason += (oi.excluded_reason.empty() ? "" : "; ") + reason;
      text(o.id, "overflow_excluded", "Excluded (never recommended): its overflow", reason,
           "constraints: overflow_option");
    }
  }
}

void Resolver::resolve_baseline() {
  if (s_.baseline.empty()) return;
  for (const auto& o : s_.options) {
    if (o.id != s_.baseline) continue;
    if (o.kind != "rent_hourly" && o.kind != "rent_spot") {
      fail("scenario", "baseline",
           "the baseline must be a rent_hourly option; '" + o.id + "' is " + o.kind);
    }
    r_.plan_inputs.baseline_option_id = o.id;
    text("scenario", "baseline", "Rental baseline", o.id);
    return;
  }
  std::vector<std::string> ids;
  for (const auto& o : s_.options) ids.push_back(o.id);
  unknown("scenario", "baseline", "option", s_.baseline, ids, "an [option:ID] of this file");
}

}  // namespace gputco::resolve_detail

namespace gputco {

ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog) {
  try {
    return resolve_detail::Resolver(scenario, catalog).run();
  } catch (const EngineError& e) {
    // The serving model sizes the options here: its refusal of a scenario value (an unmeetable
    // tpot_ms) is bad input of the file, at that key's line (or its --set) when it names one.
    if (e.key().empty()) throw ScenarioError(scenario.file, 0, "", e.what());
    const auto [file, line] = scenario.location_of(e.section(), e.key());
    throw ScenarioError(file, line, "", e.what());
  }
}

}  // namespace gputco
