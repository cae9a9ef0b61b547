// Scenario files: what the user asked, names still unresolved. INI or JSON with the same
// tree (Boost.property_tree). The only code that reads scenario files.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/hardware/hardware.hpp"
#include "engine/plan/sensitivity.hpp"  // UncertainInput: the [risk] section
#include "pricing/suggest.hpp"          // nearest(), did_you_mean(): every scenario message

namespace gputco {

/// A problem in a scenario file: which file, which key (section.key), which line (0 when
/// the format does not give one), and what was expected. what() is the full message,
/// "FILE:LINE: [section] key: problem".
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(std::string file, int line, std::string key, const std::string& problem);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }

 private:
  std::string file_;
  int line_;
  std::string key_;
};

/// One `[option:ID]` section. Unset optionals take catalog values or defaults in resolve().
struct ScenarioOption {
  std::string id;
  std::string label;  ///< display name in the reports ("" = the id)
  /// buy | rent_hourly | rent_monthly | rent_spot (= rent_hourly, term spot) | colocation
  /// (= buy, hosting colocation) | blend (= buy, overflow rent) | api (pay per token)
  std::string kind;
  std::string gpu;  ///< catalog device id (not for api options)
  /// buy: a catalog system id (pricing/data/systems.csv): its device, device count, host power
  /// and price (system_prices.csv) for the option; "" = none (gpu and count describe it).
  std::string system;
  std::optional<int> count;
  /// How many of the option's devices one NVLink domain joins (8: an NVSwitch board, 2:
  /// bridged pairs, 1: PCIe only); nullopt = the catalog system's figure, else the device's
  /// link joins all of them (resolve_interconnect.cpp).
  std::optional<int> nvlink_domain_gpus;
  /// The power limit each of the option's devices runs under, W (nvidia-smi -pl); nullopt = the
  /// [device:] section's, else none (engine/hardware/power_limit.hpp).
  std::optional<double> power_limit_w;
  std::string condition = "new";  ///< buy: new | used
  std::optional<double> price_per_gpu;
  std::optional<double> host_cost;
  std::optional<double> host_power_w;
  std::optional<double> residual_fraction;
  std::optional<double> maintenance_per_year;
  std::optional<double> rate_per_gpu_hour;
  std::optional<double> price_per_month;
  std::optional<double> setup_fee;
  std::string provider;  ///< rentals: restrict the catalog lookup to this provider
  std::string split;     ///< layer | tensor (default layer)
  std::string backend;   ///< cuda | metal | rocm | vulkan | sycl (default from the vendor)
  std::string engine;    ///< llama.cpp | vllm | sglang | tensorrt-llm ("" = the workload's)
  std::string quant;     ///< catalog quant id if not the workload's (an engine's own format)
  // rentals
  std::string term;  ///< rent_hourly: on_demand | spot | reserved_1y | reserved_3y
  std::optional<double> goodput;
  /// on_demand and spot: always_on | autoscaled (default always_on; engine/finance/billing.hpp)
  std::string billing;
  std::optional<int> min_instances;  ///< autoscaled: instances always running (default 0)
  std::string billing_granularity;   ///< autoscaled: second | minute | hour (default second)
  std::optional<int> notice_months;
  // owned (buy, colocation, blend)
  std::optional<int> warranty_months;
  std::optional<double> annual_failure_rate;
  std::string hosting;  ///< on_site | colocation
  std::optional<double> colo_per_kw_month;
  std::optional<double> colo_per_rack_unit_month;
  std::optional<double> rack_units;
  std::optional<double> contracted_kw;
  std::optional<double> kw_step;
  std::optional<bool> power_metered;
  std::optional<double> pue;
  std::optional<double> tariff_per_kwh;
  std::string financing;  ///< cash | loan | lease
  std::optional<double> down_payment;
  std::optional<double> loan_rate;
  std::optional<int> loan_term_months;
  std::optional<double> lease_rate_per_month;
  std::optional<int> lease_term_months;
  std::string overflow;         ///< buy | rent (default: the workload's)
  std::string overflow_option;  ///< the rent_hourly option that carries the overflow
  // api (kind = api)
  std::string api;  ///< catalog API price id (gputco catalog list apis)
  std::optional<double> input_price_per_million;    ///< plan currency; overrides the catalog's
  std::optional<double> output_price_per_million;   ///< plan currency; overrides the catalog's
  std::optional<double> requests_per_minute_limit;  ///< overrides the catalog's published limit
  std::optional<double> tokens_per_minute_limit;    ///< overrides the catalog's published limit
  // cost lines (engine/finance/cost_lines.hpp), plan currency; unset: "not entered"
  std::optional<double> staff_hours_per_month;
  std::optional<double> staff_rate_per_hour;
  std::optional<double> staff_fte;
  std::optional<double> staff_salary_per_year;
  std::optional<double> licence_per_month;
  std::optional<double> licence_per_year;
  std::optional<double> licence_per_gpu_per_year;
  std::optional<double> support_per_month;
  std::optional<double> support_per_year;
  std::optional<double> support_per_gpu_per_year;
  std::optional<double> insurance_per_year;     ///< owned: fraction of the purchase value a year
  std::optional<double> colo_extras_per_month;  ///< colocation: per unit a month
  // energy and carbon
  std::optional<double> idle_power_w;         ///< owned: draw of the unit when not serving
  std::optional<bool> powered_off_when_idle;  ///< owned: default true
  std::string grid_region;                    ///< catalog grid_carbon id where it runs
  std::optional<double> grid_g_co2e_per_kwh;  ///< or the intensity where it runs
  /// Which catalog price this option takes (street | list | lowest | median); "" = the
  /// scenario's. See Scenario::price_basis.
  std::string price_basis;
  /// false: a catalog price older than max_price_age_days may be chosen over a fresh one;
  /// nullopt = the scenario's.
  std::optional<bool> prefer_fresh_prices;
  // constraints (scenarios/constraints.hpp, README "Constraints")
  bool allowed = true;  ///< allowed = no: excluded from the recommendation, shown with `reason`
  std::string reason;   ///< why it is not allowed (required with allowed = no)
  std::vector<std::string> required_tags;  ///< requires: tags it must meet beside [constraints]'s
  std::vector<std::string> offered_tags;   ///< offers: tags it meets as stated (a contract)
  std::string region;  ///< where it runs and keeps data ("" = the catalog offer's, the site's)
};

/// A `[device:ID]` section: a device described in the file, used by the options whose `gpu` is
/// ID (ignoring case) before the catalog's device of that id.
struct ScenarioDevice {
  /// id (the section's), name, vendor, kind, memory_gb, memory_type, bandwidth_gbps,
  /// board_power_w, fp16_tflops, nvlink_gbps as the catalog's devices.csv columns; figures not
  /// given are 0 (unknown), as engine/hardware/hardware.hpp documents.
  Device device;
  std::string backend;  ///< the default backend of the options on it; "" = from the vendor
};

/// The `[model]` section: a model described in the file by config.json's fields.
struct ScenarioModel {
  std::string name = "model";  ///< the section's `name`: the model's id and name
  /// The other keys as a config.json object's JSON text (scenarios/inline_parts.hpp
  /// read_model_section), read by resolve() as read_hf_config_text reads it.
  std::string config_json;
};

/// A number key the parser accepts in a section of the file, with its range: what `gputco
/// sweep` may vary, so a swept value is one the file could have held.
struct ScenarioNumberKey {
  std::string section;  ///< "scenario", "workload", "site", "tax", "fx" or "option:ID"
  std::string key;
  double min = 0;
  double max = 0;
  bool whole = false;  ///< a whole number (count, horizon_months, ...)
  /// "section.key", as the sweep names it (option:ID.key for an option).
  std::string full_name() const { return section + "." + key; }
};

/// An amount of money the scenario gives (a price, a rate, a tariff) and the most such an
/// amount can plausibly be, as an amount in USD: resolve() converts that limit into the plan
/// currency and refuses a larger value, so 31 JPY a kWh is a tariff and 31 USD a kWh is not.
struct ScenarioMoneyLimit {
  std::string section;  ///< "site" or "option:ID"
  std::string key;
  double value = 0;    ///< plan currency
  std::string text;    ///< the value as written
  double max_usd = 0;  ///< the limit, in USD
  std::string what;    ///< "a price per kWh"
};

/// Where a value came from when not the scenario file: the user's config file, or the
/// command line (--set).
struct ValueOrigin {
  std::string file;        ///< named instead of the scenario file in messages: a path, "--set"
  int line = 0;            ///< the value's line there; 0 when it has none
  std::string provenance;  ///< the Inputs sheet's text: "config file PATH line 3", "--set ..."
};

/// A value put in place of a key of the file before the file is type-checked, as if the
/// file held it (`gputco sweep` varies numbers through it, `plan --set` sets any key, the
/// config file gives defaults). Every check of the parser applies. A value replaces the
/// file's keys that say the same thing another way (superseded_keys: tokens_per_day and
/// requests_per_day, grid_region and grid_g_co2e_per_kwh; a tariff id the tariff_per_kwh).
struct ScenarioOverride {
  ScenarioOverride() = default;
  ScenarioOverride(std::string section_, std::string key_, std::optional<std::string> value_)
      : section(std::move(section_)), key(std::move(key_)), value(std::move(value_)) {}

  std::string section;               ///< "scenario", "workload", "site" or "option:ID"
  std::string key;                   ///< a key of that section
  std::optional<std::string> value;  ///< the value's text; nullopt removes the key
  /// Where the value came from; none: as if the scenario file held it (errors name the file).
  std::optional<ValueOrigin> origin;
  /// A default (the config file): used only when the file gives neither this key nor a key
  /// that replaces it or that it would replace.
  bool only_if_absent = false;
};

/// A parsed, type-checked scenario. Keys not given in the file hold their defaults, and
/// `given` records which were given (for provenance).
struct Scenario {
  std::string file;
  // [scenario]
  std::string name;
  std::string currency = "EUR";  ///< any ISO 4217 code (is_iso_4217_currency)
  std::string start;             ///< YYYY-MM; default: the month of as_of
  int horizon_months = 36;
  double discount_rate = 0.08;
  std::string as_of;  ///< YYYY-MM-DD (required: prices are taken as of this date)
  std::string customer;
  std::string quote_id;
  std::string paper = "a4";  ///< page size of the workbook: a4 | letter (given: see `given`)
  std::string proposed;      ///< the option the seller proposes ("" = none)
  // [seller]: who offers the quote.
  std::string seller_company;
  std::string seller_contact;
  std::string seller_logo;  ///< an image file, as given (relative to the scenario file)
  std::string seller_terms;
  int valid_days = 30;  ///< days the quote is valid after as_of (Cover's valid-until date)
  int max_price_age_days = 90;
  std::string baseline;  ///< option id of the rental baseline for break-even (optional)
  double vat_rate = 0;
  bool vat_reclaimable = true;
  double rent_trend_per_year = 0;
  double api_price_trend_per_year = 0;             ///< per-token API prices' change per year
  std::string hours_per_month_convention = "730";  ///< 730 | 720 | calendar
  int useful_life_months = 36;
  /// Which catalog price an option takes when the scenario gives none (README "Which price"):
  /// street (default: observed retail prices, the cheapest fresh rental offer), list (MSRP),
  /// lowest (the lowest fresh observation of any type), median (the middle fresh one).
  std::string price_basis = "street";
  /// true (default): a catalog price older than max_price_age_days is chosen only when no
  /// fresh one exists.
  bool prefer_fresh_prices = true;
  // [workload]
  std::string model;
  std::string quant;
  int context_tokens = 8192;
  int concurrent_streams = 1;
  double hours_per_day = 8;
  double days_per_month = 730.0 / 24.0;
  std::string kv_cache = "f16";      ///< both caches' type
  std::string cache_type_k = "f16";  ///< K cache type (cache_type_k, else kv_cache)
  std::string cache_type_v = "f16";  ///< V cache type (cache_type_v, else kv_cache)
  double growth_per_month = 0;
  std::optional<double> tokens_per_day;
  /// The token mix: requests_per_day x (prompt, output) tokens per request, or a ratio.
  std::optional<double> requests_per_day;
  std::optional<double> prompt_tokens_per_request;
  std::optional<double> output_tokens_per_request;
  std::optional<double> input_tokens_per_output_token;
  std::optional<double> users;
  /// The hours the service must be reachable: hours_of_use (default) | 24x7.
  std::string availability;
  /// The peak hour's demand over the mean hour of use's (>= 1; not given: 1, the demand spread
  /// evenly). Exclusive with hourly_profile.
  std::optional<double> peak_factor;
  /// The day's demand by clock hour 0-23: 24 shares summing to 1 within 0.1 % (empty: not
  /// given). Its hours with a share > 0 are the hours of use.
  std::vector<double> hourly_profile;
  std::string overflow = "buy";  ///< buy | rent
  std::string overflow_option;   ///< the rent_hourly option that carries the overflow
  /// The options' default engine: llama.cpp | vllm | sglang | tensorrt-llm ("" = llama.cpp).
  std::string engine;
  /// Latency targets at the 99th percentile (`gputco throughput`'s --tpot-ms, --ttft-ms,
  /// --user-tokens-per-s): ms per output token, ms to the first token, tokens/s per user.
  std::optional<double> tpot_ms;
  std::optional<double> ttft_ms;
  std::optional<double> user_tokens_per_s;
  // [site]
  std::optional<double> tariff_per_kwh;
  std::string tariff;  ///< catalog tariff id
  double pue = 1.0;
  double tariff_trend_per_year = 0;
  std::string grid_region;  ///< catalog grid_carbon id (default: the catalog tariff's region)
  std::optional<double> grid_g_co2e_per_kwh;         ///< or the intensity itself
  bool green_power = false;                          ///< a green-power contract (market-based)
  std::optional<double> green_power_g_co2e_per_kwh;  ///< its intensity (default 0)
  // [tax]: tax depreciation per asset class (the devices; the host system), apart from the
  // book's straight line; unset: as the book (straight line over useful_life_months rounded
  // up to whole years)
  /// Corporation (or income) tax rate, 0 <= rate <= kMostTaxRate (issue #40): the after-tax
  /// view; nullopt: none (every figure pre-tax).
  std::optional<double> tax_rate;
  std::string tax_devices_method;  ///< straight_line | declining_balance
  std::string tax_host_method;     ///< straight_line | declining_balance
  std::optional<int> tax_devices_life_years;
  std::optional<int> tax_host_life_years;
  std::optional<double> tax_declining_balance_factor;  ///< 2 = double declining
  std::optional<bool> tax_switch_to_straight_line;
  /// [fx]: exchange rates over the catalog's, the plan currency per 1 unit of the key's
  /// currency ("USD" -> 0.92: 1 USD = 0.92 of the plan currency).
  std::map<std::string, double> fx;
  /// [constraints] requires: requirement tags every option must meet (scenarios/constraints.hpp).
  std::vector<std::string> required_tags;
  /// [constraints] site_region: where the plan's site is (the region of owned hardware on it).
  std::string site_region;
  /// [risk]: the Monte Carlo's uncertain inputs the scenario sets, by key (purchase_price,
  /// rental_rate, ...; scenarios/risk_keys.hpp); the others keep RiskModel's defaults.
  std::map<std::string, UncertainInput> risk_inputs;
  /// [risk] correlation_purchase_rental: -1..1; nullopt = RiskModel's default (0).
  std::optional<double> risk_correlation;
  std::vector<ScenarioOption> options;
  /// [device:ID] sections, in file order.
  std::vector<ScenarioDevice> devices;
  /// The [model] section, instead of [workload] model.
  std::optional<ScenarioModel> inline_model;

  /// What reading the file noticed without refusing it ("FILE:LINE: [option:x] host_cost =
  /// 1.500 is read as 1.5 ..."); resolve() passes them on as the plan's warnings.
  std::vector<std::string> warnings;
  /// "section.key" -> line in the file (INI only; JSON gives none).
  std::map<std::string, int> lines;
  /// "section.key" -> where the value came from, for values not from the file (config file,
  /// --set); a key absent here came from the file or is a built-in default.
  std::map<std::string, ValueOrigin> origins;
  /// "section.key" of every key the file gave.
  std::map<std::string, bool> given;
  /// Every number key of [scenario], [workload], [site] and the file's options, with the
  /// range the parser accepts (given or not).
  std::vector<ScenarioNumberKey> number_keys;
  /// "section\nkey" of every entry of number_keys: SectionReader's look-up, so that listing
  /// a key costs a logarithm of the keys listed, not a scan of them (issue #39: 20,000
  /// sections planned in 4 s, 100,000 in more than 120).
  std::set<std::string> number_keys_listed;
  /// Every amount of money given above 0, with its limit in USD (SectionReader::money).
  std::vector<ScenarioMoneyLimit> money_limits;

  /// "scenario file line N" or "scenario file" (or "default" when not given), or the
  /// origin's text for a value from the config file or --set.
  std::string provenance(const std::string& section, const std::string& key) const;
  /// The line of a key in the scenario file, 0 if unknown.
  int line_of(const std::string& section, const std::string& key) const;
  /// Where a message about a key points: the origin's file and line for a value from the
  /// config file or --set; else the scenario file and the key's line (the section's header
  /// line when the key has none, 0 when neither is known).
  std::pair<std::string, int> location_of(const std::string& section, const std::string& key) const;
};

enum class ScenarioFormat { ini, json };

/// Most [option:ID] sections a scenario may hold: 100. Planning is linear in the options (100
/// take 1.6 s of CPU with the workbook's sensitivity run), but 10,000 options took minutes and
/// gigabytes, and the workbook's charts stop at Excel's 255 series: a larger file is refused
/// (exit 2), naming the section past the limit.
inline constexpr int kMaxOptions = 100;
/// The highest [tax] rate accepted: below 1 (a rate of 100 % would leave nothing after tax).
inline constexpr double kMostTaxRate = 0.99;

/// An [fx] rate's range, the plan currency per 1 unit of the other: 1e-9 to 1e9 (wider than
/// any pair of ISO 4217 currencies; a rate outside it is a slip). The parser checks [fx] keys
/// against it and `gputco sweep` varies fx.CODE within it.
inline constexpr double kMinFxRate = 1e-9;
inline constexpr double kMaxFxRate = 1e9;

/// Quantities (hours, days, prices, powers, tokens, kW, carbon intensities, limits) are 0 or
/// at least this in magnitude: 1e-6. A smaller one (1e-320 hours a day) is refused as a typo:
/// figures divided by it would overflow to infinity.
inline constexpr double kSmallestQuantity = 1e-6;

/// The most units of any currency a USD buys, 1e7: the weakest currencies (the Iranian rial
/// near 1e6 a dollar in 2025, the Lebanese pound near 9e4) stay below it. A money key's limit
/// in USD times this bounds the key in every currency, also when the plan currency has no
/// exchange rate to convert the limit with (SectionReader::money).
inline constexpr double kMostCurrencyUnitsPerUsd = 1e7;

/// The money limits in USD (SectionReader::money): a tariff above 10 USD a kWh, a rental
/// above 10,000 USD a device-hour, an API above 1,000,000 USD a million tokens or any other
/// price above 1e9 USD is a slip of the unit or of the currency, not a quote.
inline constexpr double kMaxTariffUsdPerKwh = 10;
inline constexpr double kMaxRateUsdPerGpuHour = 1e4;
inline constexpr double kMaxApiUsdPerMillionTokens = 1e6;
inline constexpr double kMaxAmountUsd = 1e9;

/// Fractions and rates (discount_rate, vat_rate, trends, growth, residual_fraction,
/// maintenance_per_year, annual_failure_rate, down_payment, loan_rate, lease_rate_per_month)
/// below this in magnitude, 1e-9, read as 0: no figure moves by a billionth of a percent, and
/// a loan at such a rate is repaid as at 0 % (its annuity would otherwise divide by a rate
/// that 1 + r rounds away).
inline constexpr double kNegligibleFraction = 1e-9;

/// A scenario file's content, read once (standard input can be read only once; a sweep reads
/// it into its tree once and checks the tree at every point, scenarios/scenario_tree.hpp).
struct ScenarioSource {
  std::string name;  ///< the path, or <stdin> for "-": names the file in messages
  ScenarioFormat format = ScenarioFormat::ini;
  std::string content;  ///< as read, at most kMaxScenarioBytes (scenario_text.hpp)
};

/// Reads the scenario file `path` ("-": standard input) whole, refusing a directory, a FIFO,
/// a device and a file over 16 MiB (scenario_text.hpp), and tells its format: the extension
/// (.ini, .json), or for "-" the content (JSON when it starts with '{'). Throws ScenarioError.
ScenarioSource read_scenario_source(const std::string& path);

/// Parses and type-checks `source` (see parse_scenario). Throws ScenarioError.
Scenario parse_scenario(const ScenarioSource& source,
                        const std::vector<ScenarioOverride>& overrides = {});

/// Reads and type-checks a scenario file (read_scenario_source, then parse_scenario); the
/// format follows the extension (.ini, .json); "-" reads standard input.
/// Throws ScenarioError naming the file, key and line on any problem: syntax errors,
/// unknown sections or keys (with the nearest known key), wrong types, out-of-range
/// values, missing required keys, bad dates.
/// `overrides` replace (or remove) keys of the file before it is checked; an override of an
/// option the file does not have throws ScenarioError.
Scenario load_scenario(const std::string& path,
                       const std::vector<ScenarioOverride>& overrides = {});

/// Same, from a stream; `file` names it in messages.
Scenario parse_scenario(std::istream& in, ScenarioFormat format, const std::string& file,
                        const std::vector<ScenarioOverride>& overrides = {});

/// The path that means standard input.
inline constexpr const char* kStandardInputPath = "-";

/// Whether `key` is a key of `section` ("scenario", "workload", "site" or "option:ID").
bool is_scenario_key(const std::string& section, const std::string& key);

/// Every key of `section` ("scenario", "workload", "site", "seller" or "option:ID"; any option id
/// gives the option keys), in the order the README lists them; empty for another name.
const std::vector<std::string>& scenario_keys(const std::string& section);

}  // namespace gputco
