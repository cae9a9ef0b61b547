// The resolver behind resolve() (scenarios/resolve.hpp): one scenario resolved against one
// catalog, input by input, each with its provenance. Internal to scenarios/: its members are
// defined in resolve.cpp (the scenario, workload, site, options and their links),
// resolve_owned.cpp (owned hardware: purchase price, resale, hosting, financing),
// resolve_system.cpp (a buy option's catalog system: `system = ID`) and
// resolve_prices.cpp (rental rates, the choice among catalog prices, prices checked against
// their market).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pricing/catalog.hpp"
#include "scenarios/model_files.hpp"
#include "scenarios/price_choice.hpp"
#include "scenarios/resale_choice.hpp"
#include "scenarios/resolved.hpp"
#include "scenarios/scenario.hpp"

namespace gputco::resolve_detail {

/// The rest of a desktop system draws about 150 W at load (DOMAIN E5).
constexpr double kDefaultHostPowerW = 150.0;
/// New goods: the EU's legal guarantee is two years (Directive (EU) 2019/771, art. 10).
constexpr int kDefaultWarrantyNewMonths = 24;
/// Colocation: the industry's average PUE, Uptime Institute Global Data Center Survey 2023.
constexpr double kDefaultColocationPue = 1.58;
/// Colocation: power contracted in 0.5 kW steps (assumption; contracts vary).
constexpr double kDefaultKwStep = 0.5;
/// Colocation: a 4U GPU server chassis (assumption).
constexpr double kDefaultRackUnits = 4;
/// Spot: a tenth of the billed hours lost to interruptions and restarts (assumption).
constexpr double kDefaultSpotGoodput = 0.9;
/// A green-power contract's intensity when not stated: 0 g CO2e/kWh, market-based (GHG
/// Protocol Scope 2 Guidance: contractual instruments such as guarantees of origin carry
/// their generation's emission rate, 0 for wind and solar).
constexpr double kDefaultGreenPowerGCo2ePerKwh = 0;

/// A number with `digits` decimals; fmt formats without the locale.
inline std::string fixed(double value, int digits) {
  return fmt::format("{:.{}f}", value, digits);
}

/// Money in messages: two decimals (1234.50).
inline std::string money_text(double value) {
  return fixed(value, 2);
}

/// A rate per device-hour in messages: four significant decimals at most (2.99, 0.0041).
inline std::string rate_text(double value) {
  return fmt::format("{}", std::round(value * 1e4) / 1e4);
}

inline bool is_owned_kind(const std::string& kind) {
  return kind == "buy" || kind == "colocation" || kind == "blend";
}

template <typename T, typename IdOf>
std::vector<std::string> ids_of(const std::vector<T>& items, IdOf id_of) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  return ids;
}

class Resolver {
 public:
  Resolver(const Scenario& s, const Catalog& catalog) : s_(s), catalog_(catalog) {}

  ResolvedScenario run();

 private:
  /// A key the file does not give (a price the catalog lacks) has no line: name its
  /// section's, so the message still points into the file.
  /// Refuses a [device:ID] whose id is a catalog device's (issue #39): it shadowed the catalog's
  /// device for some options and not for others. Throws ScenarioError at the section.
  void refuse_inline_devices_named_as_the_catalogs() const;
  [[noreturn]] void refuse_shadowing(const ScenarioDevice& d) const;
  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& problem) const;

  [[noreturn]] void unknown(const std::string& section, const std::string& key,
                            const std::string& what, const std::string& id,
                            const std::vector<std::string>& known, const std::string& list) const;

  /// The file section of an Inputs-sheet section: option rows are listed under the option id.
  static std::string file_section(const std::string& section);

  void number(const std::string& section, const std::string& key, const std::string& label,
              double value, const std::string& unit, std::string provenance = "");

  void text(const std::string& section, const std::string& key, const std::string& label,
            const std::string& value, std::string provenance = "");

  /// Adds a catalog price to the Sources sheet and returns its provenance text.
  std::string source(const std::string& what, double amount, const std::string& currency,
                     const std::string& unit, const Provenance& p);

  /// The provenance text of a catalog value ("catalog: SOURCE, observed DATE...").
  std::string source_provenance(const Provenance& p) const;

  /// Converts a catalog amount into the plan currency at fx_rate_to_plan; appends the
  /// conversion to `provenance` and remembers it for the next number() (pending_conversion_).
  /// Sets `converted_from` (the amount's OptionInputs::converted_from or
  /// SiteInputs::tariff_converted_from field) to `from` when it is not the plan currency, else
  /// clears it, and lists `from` in converted_currencies_: the [risk] fx.CODE draws move
  /// exactly these amounts.
  double convert(double amount, const std::string& from, std::string& provenance,
                 const std::string& section, const std::string& key, std::string& converted_from);

  /// The plan currency per 1 unit of `from` and the catalog rates it is made of: none for the
  /// scenario's [fx] rate, one for the catalog's dated rate (direct or inverted), two for a
  /// cross rate through EUR (FROM/EUR, EUR/plan) of one date: the latest on or before as_of
  /// both legs are observed on, else each leg's latest. nullopt when there is none.
  struct FxQuote {
    double rate = 0;
    std::vector<FxRate> legs;
  };
  std::optional<FxQuote> fx_quote(const std::string& from) const;
  /// A warning of the plan when the catalog rates its conversions used (every leg of every
  /// currency converted) are of different dates, each pair named with its date.
  void check_fx_dates();

  /// The plan currency per 1 unit of `from` (fx_quote): the scenario's [fx] rate, else the
  /// catalog's dated rate (direct or inverted), else a cross rate through EUR (the ECB's reference
  /// rates are quoted against the euro). Listed once as the input fx.FROM with its provenance (the
  /// catalog rates also on the Sources sheet). Fails naming `section` and `key` (the value
  /// being converted) when there is none.
  double fx_rate_to_plan(const std::string& from, const std::string& section,
                         const std::string& key);

  /// The plan currency per 1 USD for the plausibility limits of money keys: 1 in USD, else
  /// fx_quote's rate, else the catalog's latest rate whatever its date (a scenario dated
  /// before the catalog's first rate still has limits); nullopt when there is none at all.
  std::optional<double> usd_rate_for_limits() const;

  /// Refuses an amount of money the scenario gives (Scenario::money_limits) above its limit in
  /// USD converted into the plan currency, the limit named in the plan currency. Without a
  /// USD rate only the parser's limit in any currency holds.
  void check_money_limits() const;

  /// A catalog exchange rate on the Sources sheet (once); returns its provenance text.
  std::string listed_fx_source(const FxRate& fx);

  /// How this option chooses among catalog prices: its own keys, else the scenario's.
  PriceBasis basis_of(const ScenarioOption& o) const;

  /// An amount in the plan currency at fx_quote's rate, for comparing prices (no Sources row,
  /// no input row); nullopt without a rate.
  std::optional<double> maybe_in_plan_currency(double amount, const std::string& currency) const;

  /// The same, or the amount as it is without a rate (comparisons only).
  double in_plan_currency(double amount, const std::string& currency) const;

  /// A purchase price (typed or the catalog's, plan currency) against the item's market: the
  /// catalog's purchase-price band (Catalog::price_plausibility). Typed and kAbsurdFactor off:
  /// refused; outside the band: a warning of the option.
  void check_purchase(const ScenarioOption& o, OptionInputs& oi, double price, bool typed);

  /// A typed host_power_w above both its devices' board power and 2 kW, or a typed host_cost
  /// above twice its devices' price: a warning of the option (a unit slip, not a machine).
  /// A typed idle_power_w above the unit's power at load (devices + host) is refused.
  void check_host(const ScenarioOption& o, OptionInputs& oi) const;

  /// A rate per device-hour (typed or the catalog's, plan currency; a monthly server's rent /
  /// devices / 730 h) against the dated median of the device's `term` offers
  /// (Catalog::rental_market; the band of Catalog::rental_plausibility), with fewer than
  /// kRentalMinPeers of them the median of its offers of any date, with fewer still
  /// check_rental_against_purchase. Typed and kAbsurdFactor off: refused, with a hint when it
  /// looks like 730 h a month mistaken; outside the band: a warning of the option.
  void check_rental(const ScenarioOption& o, OptionInputs& oi, const std::string& term,
                    const std::string& key, double per_hour, bool typed);
  /// A rate with no market to compare with, against what owning the device costs (the band of
  /// Catalog::rental_plausibility's "purchase" finding): below the lowest catalog purchase
  /// price of the device / Catalog::kOwnedHours (not for spot) or above the highest /
  /// Catalog::kPaybackHours, in the plan currency: a warning of the option, `label` before it
  /// and `hint_row` after. No purchase price: nothing said.
  void check_rental_against_purchase(OptionInputs& oi, const std::string& term, double per_hour,
                                     const std::string& per_month, const std::string& label,
                                     const std::string& hint_row);

  /// Spot and reserved above on-demand, typed or not: a spot or reserved_1y/3y option's rate
  /// against the on-demand options of the same device in the scenario, else the dated median of
  /// the catalog's on-demand offers: a warning of the option.
  void check_spot_above_on_demand();

  void resolve_scenario();
  /// A warning when --set changed the plan currency and the scenario file types amounts of
  /// money: they are read in the new currency, not converted (up to three named).
  void warn_currency_overridden();

  /// [tax]: tax depreciation per asset class (the devices; the host system); unset: as the
  /// book, straight line over the useful life rounded up to whole years.
  void resolve_tax();

  bool given(const std::string& section, const std::string& key) const;

  /// [workload] model: a catalog id, a Hugging Face repo id or a model file beside the
  /// scenario (resolve_model_argument); its problems are the key's.
  ResolvedModel resolve_model() const;
  /// The [model] section read as a config.json (model_from_config_text); a key the reader
  /// never looks at is refused (the nearest one it reads suggested), and the reader's problems
  /// are the section key's.
  ResolvedModel inline_model() const;
  /// The [device:ID] section for this id (ignoring case), nullptr when the file has none.
  const ScenarioDevice* inline_device(const std::string& id) const;
  /// [workload] quant: the model file's own format when not given or named alike, else a
  /// catalog quant.
  Quant resolve_quant(const ResolvedModel& model) const;
  void resolve_workload();

  /// The demand in tokens: tokens_per_day (output), or requests_per_day x output tokens per
  /// request; the mix (prompt tokens per output token) from the tokens per request or given.
  void resolve_token_mix();
  /// The demand's peak: peak_factor (default 1, stated) or hourly_profile, into
  /// WorkloadInputs (issue #21).
  void resolve_peak();

  /// The serving keys of [workload] (issue #21 items 3B, 3C): the default engine, the latency
  /// targets, the request shape, and concurrent_streams (per replica: never derived from the
  /// demand, which sizes the fleet, issue #43).
  void resolve_serving_workload();

  /// Options sized by the serving model need the request shape: fails on
  /// [workload] prompt_tokens_per_request when it is missing and one is.
  void require_request_shape();

  /// An api option is billed per token: the workload must state the volume and the mix.
  /// Errors name the [workload] section's line (the key is missing: it has none).
  void require_api_volume();

  /// Adds a grid intensity to the Sources sheet and returns its provenance text.
  std::string carbon_source(const GridCarbon& g);

  /// The site's carbon intensity: a green-power contract's, the one given, the catalog's for
  /// grid_region, else the catalog's for the tariff's region; unknown otherwise.
  void resolve_site_carbon(const std::string& tariff_region);

  void resolve_site();

  Device device_of(const ScenarioOption& o, const std::string& section);

  void resolve_option(const ScenarioOption& o);

  /// The cost lines (engine/finance/cost_lines.hpp) that apply to the option's kind, each entered
  /// one as an input, each other one as "not entered" (counted as 0; an empty input cell). Warns on
  /// `oi` when its engine is llama.cpp and `quant_id` is a format llama.cpp cannot run (FP8, NVFP4,
  /// INT4-AWQ): the plan keeps llama.cpp's estimate as a stated stand-in
  /// (`engine_defaulted`: no engine was given, so llama.cpp is the default). Throws nothing.
  void warn_format_llama_cpp_cannot_run(const std::string& quant_id, bool engine_defaulted,
                                        OptionInputs& oi) const;
  void resolve_cost_lines(const ScenarioOption& o, OptionInputs& oi);
  /// [risk]: the Monte Carlo's ranges (r_.risk_model) over RiskModel's defaults; each range
  /// the scenario sets is an input.
  void resolve_risk();
  /// [risk] fx.CODE ranges into RiskModel::fx, after every option is resolved: every currency
  /// an amount was converted from is listed (fixed unless the scenario gives its range). Fails
  /// naming the key when CODE is a currency no amount of the plan was converted from.
  void resolve_risk_fx();
  /// [constraints]: the requirements every option must meet and the site's region, as inputs.
  void resolve_scenario_constraints();
  /// Whether the option may be chosen (scenarios/constraints.hpp): allowed = no, or a
  /// requirement ([constraints] requires and the option's) its region or kind does not meet,
  /// sets oi.excluded_reason; the option's constraint keys become inputs. Call after the
  /// option's kind, hosting and catalog offer (offer_region_) are resolved.
  void resolve_option_constraints(const ScenarioOption& o, OptionInputs& oi);
  /// Idle power, PUE of rented capacity, and the carbon intensity where the option runs.
  void resolve_option_energy(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// A pay-per-token API: prices from the catalog (converted) or the scenario, limits.
  void resolve_api(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  void resolve_count(const ScenarioOption& o, OptionInputs& oi, int needed);

  /// `system = ID` of a buy option (resolve_system.cpp): the catalog system into system_, its
  /// price for the option's condition (the latest, Catalog::latest_system_price), its id and
  /// name into `oi`. Fails naming the key on an unknown id (with the nearest ids), a `gpu` or
  /// `count` that contradicts the system, or a system whose device the catalog lacks.
  void resolve_system(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// The links between the option's devices, once its count is known
  /// (resolve_interconnect.cpp): the option's nvlink_domain_gpus key, else its catalog
  /// system's, into oi.device.nvlink_domain_gpus (the engine's tensor-parallel and pipeline
  /// communication, calibration.hpp nvlink_joins), with an Inputs row and oi.interconnect.
  /// Fails naming nvlink_domain_gpus when it is above the option's count.
  void resolve_interconnect(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// The power limit of the option's devices (resolve_power_limit.cpp): the option's
  /// power_limit_w, else its [device:] section's, into oi.device.power_limit_w, with Inputs rows
  /// for the limit and the compute share it leaves, and the engine's warning below 60 % of board
  /// power. Fails naming power_limit_w on a limit power_limit_effect refuses (above the board
  /// power, below a quarter of it, or a device without a board power).
  void resolve_power_limit(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// The purchase of a system option (system_ set): price_per_gpu and host_cost from the
  /// system's price, the typed keys replacing the part they name (README "A catalog system").
  /// Fails on [option] system when the catalog has no price for the condition and
  /// price_per_gpu is not given.
  void resolve_system_price(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// The purchase price per device when no whole-system price covers it: typed, else the
  /// catalog's for the option's condition and price basis, checked against its market.
  void resolve_device_price(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  void resolve_buy(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// Lists the catalog points a resale value rests on on the Sources sheet (once each).
  void resale_sources(const ResaleChoice& choice, const std::string& condition);

  /// Resale at the horizon: given, else the catalog's curves at the horizon's age: the device
  /// class's for the devices (scenarios/resale_choice.hpp), the host's for host_cost, blended
  /// by capex into one fraction; each curve named on the Inputs sheet.
  void resolve_residual(const ScenarioOption& o, OptionInputs& oi);

  void resolve_hosting(const ScenarioOption& o, OptionInputs& oi);

  void resolve_financing(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// Overflow: the option's own switch, else the workload's; a blend always rents it.
  void resolve_overflow_links();

  void resolve_hourly(const ScenarioOption& o, OptionInputs& oi, const std::string& section);

  /// On-demand and spot rentals: billing, min_instances and billing_granularity (engine/
  /// billing.hpp), each listed among the inputs with its default.
  void resolve_hourly_billing(const ScenarioOption& o, OptionInputs& oi);
  void resolve_hourly_rate(const ScenarioOption& o, OptionInputs& oi, const std::string& section,
                           const std::string& term);

  void resolve_monthly(const ScenarioOption& o, OptionInputs& oi, const std::string& section,
                       int needed);

  void resolve_baseline();

  const Scenario& s_;

  const Catalog& catalog_;

  ResolvedScenario r_;

  std::string tariff_region_;  ///< the catalog tariff's region, for the default grid region

  std::string offer_region_;  ///< the current option's catalog offer region ("" if none)

  /// The current option's catalog system (`system = ID`) and its price for the option's
  /// condition; nullopt for an option without one.
  struct SystemChoice {
    System system;
    /// The price taken: the condition's, or for a used system without one, the new host-only
    /// price (the used cards priced apart; engine/hardware/finder.hpp system_price's rule);
    /// nullopt: none.
    std::optional<SystemPrice> price;
    bool new_host_for_used = false;  ///< `price` is the new host's, for a used system
  };
  std::optional<SystemChoice> system_;

  /// The exchange rates taken so far (fx_rate_to_plan), by currency.
  std::map<std::string, double> fx_rates_;

  /// The currencies convert() converted an amount from (not the [fx] rates only listed).
  std::set<std::string> converted_currencies_;

  /// The last conversion: an amount in another currency and its rate. The next number() whose
  /// value is amount x rate keeps both on its row (InputRow::published_amount), so that the
  /// workbook computes it as a formula of the rate; any number() or text() clears it.
  struct Conversion {
    double amount = 0;
    std::string currency;
    double rate = 0;
  };
  std::optional<Conversion> pending_conversion_;
};

}  // namespace gputco::resolve_detail
