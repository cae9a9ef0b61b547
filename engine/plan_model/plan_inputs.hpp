// The plan's inputs: option kinds and terms, the workload, the site, the finance terms and
// every option's figures, resolved and in the plan currency; and the check of their domain.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/finance/billing.hpp"
#include "engine/finance/cost_lines.hpp"
#include "engine/finance/depreciation.hpp"
#include "engine/hardware/fit.hpp"
#include "engine/hardware/hardware.hpp"
#include "engine/hardware/speed.hpp"
#include "engine/serving/serving.hpp"

namespace gputco {

enum class OptionKind {
  buy,           ///< buy devices (new or used), run them on site
  rent_hourly,   ///< rent devices by the device-hour, billed for the hours used
  rent_monthly,  ///< rent a private server by the month, billed whether used or not
  api            ///< a hosted model behind a pay-per-token API: no devices, billed per token
};
enum class Condition { new_unit, used };

/// How a rent_hourly option is billed.
enum class RentTerm {
  on_demand,    ///< billed by the instance-hour as OptionInputs::hourly_billing says
  spot,         ///< the same / goodput (interruptions waste some hours)
  reserved_1y,  ///< committed for 12 months: billed for every hour of the month, used or not
  reserved_3y   ///< committed for 36 months: billed for every hour of the month, used or not
};
/// Where owned hardware runs.
enum class Hosting {
  on_site,    ///< the plan's site (office): its tariff and PUE
  colocation  ///< a rented rack: per kW and per rack unit per month, the data centre's PUE
};
/// What an option does when the demand outgrows its capacity.
enum class Overflow {
  add_units,  ///< add another unit of the option (capex or contract in that month)
  rent        ///< rent the excess by the hour from a named rent_hourly option
};
/// How an owned option's hardware is paid for.
enum class Financing {
  cash,  ///< capex when bought
  loan,  ///< down payment, then annuity instalments (PMT)
  lease  ///< no purchase: a monthly fee as a fraction of the hardware price
};
/// A load within this of a whole number of units is that number: no unit is bought for the
/// rounding residue of (1 + g)^m. The workbook's units formula uses the same value.
inline constexpr double kLoadTolerance = 1e-9;
/// An hourly profile's shares must sum to 1 within this (0.1 %: shares written with three
/// decimals, 24 of them, round to within it).
inline constexpr double kProfileSumTolerance = 1e-3;
/// Hours in a full day, for 24-hour billing and calendar months.
inline constexpr double kHoursPerFullDay = 24.0;
/// Tokens in the "million" of API prices and of cost per million tokens.
inline constexpr double kTokensPerMillion = 1e6;
/// Grams per kilogram (grid intensities are g CO2e/kWh, emissions kg CO2e).
inline constexpr double kGramsPerKilogram = 1000.0;
/// PUE of a data centre whose own figure is unknown (rented capacity, colocation): 1.58, the
/// average of the Uptime Institute Global Data Center Survey 2023. Energy estimate only: the
/// money of a rental is its rent.
inline constexpr double kDefaultDataCentrePue = 1.58;
/// Idle draw of a device as a fraction of its board power, when not stated (`idle_power_w`):
/// 0.10. Measured idle of an RTX 3090 (350 W board) is 15-30 W in P8 with a model loaded
/// (4 x RTX 3090, github.com/ilya-zlobintsev/LACT issue 908) and ~18 W on a desktop
/// (ecoenergygeek.com, "RTX 3090 Power Consumption Guide"); an inference server that
/// keeps the card in P2 draws more (an RTX A4000 at 38 of 140 W, github.com/huggingface/
/// text-generation-inference issue 946). 10 % (35 W for a 3090) sits between them: an
/// assumption, override it with `idle_power_w`.
inline constexpr double kDefaultIdleFractionOfBoardPower = 0.10;
/// Idle draw of the host (CPU, memory, fans, PSU losses) as a fraction of its draw at load,
/// when not stated: 0.5 (assumption: a desktop host idles at 60-80 W against ~150 W at load).
inline constexpr double kDefaultIdleFractionOfHostPower = 0.5;

/// The hours in a month for 24-hour billing (reserved terms) and for the default days of use.
enum class HoursConvention {
  h730,     ///< 730 h = 365 x 24 / 12 (the cloud providers' month)
  h720,     ///< 720 h = 30 days x 24
  calendar  ///< the real days of each calendar month x 24 (needs the start month)
};

std::string to_string(OptionKind k);
std::string to_string(Condition c);
std::string to_string(RentTerm t);
std::string to_string(Hosting h);
std::string to_string(Overflow o);
std::string to_string(Financing f);
std::string to_string(HoursConvention c);
std::string to_string(Billing b);
std::string to_string(BillingGranularity g);
std::string to_string(Availability a);

/// Months of a reserved term (12, 36), 0 for on_demand and spot.
int term_months(RentTerm t);

/// What is served and how hard. Hours of use per month = hours_per_day x days_per_month.
///
/// Demand over time: the load of month m (m >= 1), in units of one option unit's capacity, is
/// L_m = base_load x (1 + growth_per_month)^(m - 1), where base_load = tokens_per_day /
/// (capacity_tokens_per_hour x hours_per_day) when tokens_per_day is given, else 1 (every
/// option is sized to carry the stated workload: concurrent_streams during hours_per_day).
struct WorkloadInputs {
  int context_tokens = 8192;
  int concurrent_streams = 1;
  double hours_per_day = 8;              ///< hours per day the service runs at load
  double days_per_month = 730.0 / 24.0;  ///< default: 730 h per month at 24 h/day
  KvCacheTypes kv_cache;                 ///< element types of the K and V cache
  /// Demand growth per month, a fraction (0.03 = tokens per day +3 % a month); > -1.
  double growth_per_month = 0;
  /// Tokens generated (output tokens) per day of use in month 1; nullopt: the stated workload
  /// is one unit of load. An api option needs it (its bill is per token).
  std::optional<double> tokens_per_day;
  /// Prompt (input) tokens sent per generated (output) token: the token mix of the demand.
  /// Input tokens per day = tokens_per_day x input_tokens_per_output_token. From the scenario's
  /// prompt_tokens_per_request / output_tokens_per_request, or given. nullopt: not stated (an
  /// api option then cannot be priced). Hardware options spend device time on these tokens
  /// too: their capacity counts the prompt's prefill beside decode (see
  /// capacity_tokens_per_hour).
  std::optional<double> input_tokens_per_output_token = std::nullopt;
  /// Requests per day of use in month 1 (for requests-per-minute limits, and the prompt
  /// length of the prefill estimate); nullopt: not stated. Moves with tokens_per_day
  /// (at_hours_per_day, break-even volume).
  std::optional<double> requests_per_day = std::nullopt;
  /// Hours in a month for 24-hour billing, and for days of use when days_follow_convention.
  HoursConvention hours_per_month_convention = HoursConvention::h730;
  /// true: days of use in month m = hours in month m / 24 (days_per_month is then ignored).
  bool days_follow_convention = false;
  /// People served, for cost per user per month; nullopt: not given.
  std::optional<double> users;
  /// The hours the service must be reachable: an always-on rental is billed for them, an
  /// autoscaled one for its min_instances over them (engine/finance/billing.hpp).
  Availability availability = Availability::hours_of_use;
  /// The peak hour's demand over the mean hour of use's (>= 1; 1 = the demand spread evenly,
  /// the default). Owned units, reserved and monthly units and always-on instances are sized
  /// for load x the peak (engine/finance/load_shape.hpp daily_load_shape: the peak hour at this
  /// factor, the other hours sharing the rest). Ignored when hourly_profile is given.
  double peak_factor = 1.0;
  /// The day's demand by clock hour: 24 shares summing to 1 (the scenario's check: within
  /// 0.1 %), or empty (none). hours_per_day is then the hours with a share > 0 (the
  /// resolver's rule); the peak is 24 shares' largest x those hours.
  std::vector<double> hourly_profile;
  /// The request shape: mean prompt (input) and generated (output) tokens per request, from
  /// the scenario's prompt_tokens_per_request / output_tokens_per_request; nullopt: not
  /// stated. Options sized by the serving model (engine/fleet/serving_capacity_plan.hpp) need them;
  /// the prompt is the prefill estimate's prompt length when given (prefill_prompt_tokens).
  std::optional<double> prompt_tokens_per_request = std::nullopt;
  std::optional<double> output_tokens_per_request = std::nullopt;
  /// Latency targets at the 99th percentile (engine/serving/serving.hpp ServingGoal, the names of
  /// `gputco throughput --tpot-ms --ttft-ms --user-tokens-per-s`): time per output token and
  /// time to first token under load, ms, and the per-user speed (1 / mean TPOT), tokens/s.
  /// Any of them given: every option is sized by the serving model at the largest batch that
  /// meets them; none: serving engines run the most memory allows (max batch).
  std::optional<double> tpot_p99_ms = std::nullopt;
  std::optional<double> ttft_p99_ms = std::nullopt;
  std::optional<double> user_tokens_per_s = std::nullopt;
};

/// Where owned hardware runs.
struct SiteInputs {
  double tariff_per_kwh = 0;  ///< electricity, plan currency per kWh
  double pue = 1.0;           ///< facility power / IT power (1.0 = no cooling overhead)
  /// Electricity price change per year, a fraction (0.05 = +5 %/year), applied monthly:
  /// month m pays tariff x (1 + trend)^((m - 1) / 12).
  double tariff_trend_per_year = 0;
  /// Carbon intensity of the site's electricity, g CO2e per kWh: the grid's (catalog, by
  /// region, location-based) or a green-power contract's (market-based). nullopt: unknown,
  /// and so are the site's emissions (never taken as 0).
  std::optional<double> grid_g_co2e_per_kwh = std::nullopt;
  /// The ISO 4217 currency the tariff was published in when the resolver converted it into the
  /// plan currency (a catalog tariff in another currency); empty: given in the plan currency.
  /// Read by the Monte Carlo only: a [risk] fx.CODE draw moves the tariffs converted from CODE.
  std::string tariff_converted_from = {};
};

struct FinanceInputs {
  int horizon_months = 36;
  double discount_rate_per_year = 0.08;  ///< annual rate; discounting is monthly
  std::string currency = "EUR";          ///< every amount in PlanInputs is in this currency
  /// Hourly rental rates' change per year (on-demand, spot, overflow rentals; not reserved
  /// or monthly contracts, whose price is fixed), applied monthly: (1 + trend)^((m - 1) / 12).
  double rent_trend_per_year = 0;
  /// Per-token API prices' change per year (-0.3 = -30 %/year), applied monthly like the rent
  /// trend: month m pays the prices x (1 + trend)^((m - 1) / 12).
  double api_price_trend_per_year = 0;
  /// VAT rate on every cost (0.19 = 19 %). Amounts in PlanInputs exclude VAT.
  double vat_rate = 0;
  /// true: VAT is reclaimed (a business): costs exclude VAT and the vat row is zero;
  /// false: VAT is a cost, shown on its own row.
  bool vat_reclaimable = true;
  /// Straight-line depreciation period of owned hardware (accounting view), months.
  int useful_life_months = 36;
  /// Tax depreciation of owned hardware per asset class (the devices; the host system), apart
  /// from the book schedule: ProfitAndLoss's tax rows.
  TaxClassRules tax_devices;
  TaxClassRules tax_host;
  /// Corporation (or income) tax rate on the saving of each option's deductible costs (0.25 =
  /// 25 %), 0 <= rate < 1; nullopt: no tax view (every figure pre-tax, as before issue #40).
  /// With a rate, OptionResult::after_tax holds the after-tax cash flow and NPV and the
  /// recommendation is made on the after-tax NPV (engine/plan_model/after_tax.hpp).
  std::optional<double> tax_rate = std::nullopt;
  /// First month of the plan (for calendar months only): year and month 1..12.
  int start_year = 2027;
  int start_month = 1;
};

/// The ISO 4217 currency each of an option's amounts was published in, where the resolver
/// converted it into the plan currency (scenarios/resolve_fx.cpp convert(): a catalog price in
/// another currency); empty: typed or published in the plan currency. Read by the Monte Carlo
/// only: a [risk] fx.CODE draw moves exactly the amounts converted from CODE (RiskModel::fx).
struct ConvertedFrom {
  std::string price_per_gpu;
  std::string host_cost;  ///< a catalog system's host-only price (scenarios/resolve_system.cpp)
  std::string rate_per_gpu_hour;
  std::string price_per_month;
  std::string setup_fee;
  std::string input_price_per_million;
  std::string output_price_per_million;
};

/// One option, every figure resolved and in the plan currency.
struct OptionInputs {
  std::string id;
  OptionKind kind = OptionKind::buy;
  /// What resolving this option's inputs found worth saying (a typed price outside the band of
  /// its market, a catalog price accepted as an outlier, a stale price chosen for lack of a
  /// fresh one, ...), one sentence each; make_plan copies them first into
  /// OptionResult::warnings, so every report shows them.
  std::vector<std::string> input_warnings;
  /// Why the option may not be chosen ("not allowed: data must stay in the EU", "requires
  /// eu-data-residency, but it runs in region 'global' ..."); "" = allowed. An excluded option
  /// is planned and shown like any other, with this reason, but never recommended and never
  /// taken as the automatic baseline or API reference (make_plan).
  std::string excluded_reason;
  Device device;
  int count = 1;  ///< devices in the option (for rent_monthly: devices in the server)
  SplitMode split = SplitMode::layer;
  Backend backend = Backend::cuda;
  /// The engine that serves the option (scenario key `engine`, the workload's by default):
  /// llama.cpp without latency targets keeps the llama.cpp model at concurrent_streams
  /// (box_speed); any other engine, or any latency target, sizes the option by the serving
  /// model (engine/fleet/serving_capacity_plan.hpp).
  ServingEngine engine = ServingEngine::llama_cpp;
  /// The option's weight format if not the plan's (scenario option key `quant`): a rented
  /// H100 on vLLM serves FP8 or INT4-AWQ weights where an office rig on llama.cpp serves a
  /// GGUF quant. nullopt: PlanInputs::quant. Fit, layout and speed use it.
  std::optional<Quant> quant;
  // buy
  /// The catalog system the option buys (scenario key `system`, pricing/data/systems.csv): its
  /// id and display name, for the reports; "" = devices and host described apart.
  std::string system_id;
  std::string system_name;
  /// The links between the option's devices in words, as the engine takes them (the catalog
  /// system's interconnect and its NVLink domain, or the option's nvlink_domain_gpus key):
  /// "NVLink 900 GB/s joins all 8 devices"; "" when neither states it (the device's own link,
  /// Device::nvlink_domain_gpus 0). The domain itself is device.nvlink_domain_gpus.
  std::string interconnect;
  Condition condition = Condition::new_unit;
  double price_per_gpu = 0;  ///< purchase price per device
  double host_cost = 0;      ///< rest of the system (chassis, CPU, PSU), once
  /// false when a buy option described by gpu and count gave no host_cost: the host counts 0
  /// and the reports list it among the costs not entered (OptionResult::cost_lines_not_entered).
  bool host_cost_entered = true;
  double host_power_w = 0;          ///< rest of the system's draw at load, W
  double residual_fraction = 0;     ///< resale at the horizon as a fraction of capex
  double maintenance_per_year = 0;  ///< fraction of capex per year
  // buy: the used market and failures
  int warranty_months = 0;         ///< failures within it cost nothing
  double annual_failure_rate = 0;  ///< expected share of devices failing per year after it
  // buy: hosting
  Hosting hosting = Hosting::on_site;
  double colo_per_kw_month = 0;          ///< colocation: price per contracted kW per month
  double contracted_kw = 0;              ///< colocation: kW contracted per unit
  double colo_per_rack_unit_month = 0;   ///< colocation: price per rack unit per month
  double rack_units = 0;                 ///< colocation: rack units per unit
  bool power_metered = true;             ///< colocation: energy billed apart (false: in the kW fee)
  std::optional<double> pue;             ///< this option's PUE if not the site's (colocation)
  std::optional<double> tariff_per_kwh;  ///< this option's tariff if not the site's
  // buy: financing
  Financing financing = Financing::cash;
  double down_payment_fraction = 0;  ///< loan: paid at month 0, fraction of the first capex
  double loan_rate_per_year = 0;     ///< loan: nominal annual rate, r / 12 per month
  int loan_term_months = 36;
  double lease_rate_per_month = 0;  ///< lease: monthly fee as a fraction of the hardware price
  int lease_term_months = 36;
  // rent_hourly
  double rate_per_gpu_hour = 0;
  RentTerm term = RentTerm::on_demand;
  double goodput = 1.0;  ///< spot: useful share of billed hours (0 < goodput <= 1)
  /// on_demand and spot: always on (default) or autoscaled, with its minimum and granularity.
  HourlyBilling hourly_billing;
  // rent_monthly
  double price_per_month = 0;  ///< the whole server, per month
  double setup_fee = 0;        ///< once, at the start
  int notice_months = 0;       ///< months paid after the horizon (notice given at its end)
  // api (kind api): prices per million tokens, plan currency
  double input_price_per_million = 0;   ///< per million prompt (input) tokens
  double output_price_per_million = 0;  ///< per million generated (output) tokens
  /// The currencies the amounts above were converted from (the Monte Carlo's FX draws).
  ConvertedFrom converted_from = {};
  std::string api_model;  ///< the provider's model name, for labels
  /// Published rate limits (requests and tokens per minute, input + output); nullopt: not
  /// published or not stated. Exceeding one is flagged (OptionResult), never refused.
  std::optional<double> requests_per_minute_limit = std::nullopt;
  std::optional<double> tokens_per_minute_limit = std::nullopt;
  // energy and carbon
  /// Draw of one unit while powered but not serving (devices + host), W. Owned options; for
  /// reserved and monthly rentals (on all month) the devices' idle draw. Default (resolver):
  /// kDefaultIdleFractionOfBoardPower x count x board power + kDefaultIdleFractionOfHostPower
  /// x host_power_w.
  double idle_power_w = 0;
  /// Owned options: true = switched off (or asleep at negligible draw) whenever it does not
  /// serve, so only the hours at load draw power (the energy model before idle power existed,
  /// and the default); false = on all month: the unit-hours not at load draw idle_power_w.
  bool powered_off_when_idle = true;
  /// Carbon intensity where this option runs, g CO2e/kWh; nullopt: owned options take the
  /// site's, rentals are unknown. Rentals: the provider region's (catalog) when known.
  std::optional<double> grid_g_co2e_per_kwh = std::nullopt;
  /// Why the intensity is unknown (e.g. "no grid intensity for region 'xx' in the catalog"),
  /// shown where the emissions would be; "" = the engine's generic reason.
  std::string carbon_unknown_reason;
  // staff, licences, support, insurance, colocation extras (each nullopt: not entered)
  CostLines cost_lines;
  // growth
  Overflow overflow = Overflow::add_units;
  std::string overflow_option_id;  ///< overflow = rent: the rent_hourly option that carries it
  bool blend = false;              ///< own the base load, rent the peaks (label; overflow = rent)
  // Derived by prepare_plan_inputs (from fit, speed and the overflow option); a caller that
  // changes prices after it calls it again.
  /// One unit at load: output tokens per hour of device time, the prompts' prefill included
  /// (capacity_tokens_per_hour() of the aggregate decode rate, the prefill rate and the
  /// workload's input tokens per output token); aggregate decode tokens/s x 3600 without input
  /// tokens or when the device's FP16 throughput is unknown (prefill then not counted).
  double capacity_tokens_per_hour = 0;
  /// Prefill rate of one unit, prompt tokens per second (SpeedEstimate::prefill_tokens_per_s
  /// at the workload's prompt length); 0 when unknown (Device::fp16_tflops 0) or not needed.
  double prefill_tokens_per_s = 0;
  /// How the unit's `count` devices serve (engine/serving/replicas.hpp choose_box_layout):
  /// `replicas` instances of `gpus_per_replica` devices; capacity_tokens_per_hour and
  /// prefill_tokens_per_s are the instances' sum. 0 = not derived yet (api options: never).
  int gpus_per_replica = 0;
  int replicas = 0;
  std::string layout_note;  ///< the layout and why, one sentence ("" when not derived)
  /// The serving model's figures when it sized the option (engine/fleet/serving_capacity_plan.hpp);
  /// nullopt: the llama.cpp model did (or no capacity was derived).
  std::optional<ServingCapacity> serving;
  /// The engine, batch and latency figures of `serving`, one sentence ("" when nullopt).
  std::string serving_note;
  /// Why the option cannot serve the demand although its devices hold the model's weights:
  /// the serving model found no layout holding one replica and one sequence ("does not fit:
  /// ..."), or no batch and no layout meets a latency target ("cannot meet the targets: ...");
  /// "" = it can (engine/fleet/serving_capacity_plan.hpp). Such an option is listed with the
  /// reason and never priced (make_plan).
  std::string unservable_reason;
  double overflow_rate_per_hour = 0;  ///< overflow rental: rate x count / goodput, per hour
  /// How the overflow rental is billed (its hourly_billing): always on for the instances the
  /// peak leaves over, or autoscaled with its minimum and granularity (issue #21).
  HourlyBilling overflow_billing;
  double overflow_capacity_tokens_per_hour = 0;  ///< one overflow rental unit at load
  /// The overflow rental's energy figures, for the blend's own energy and CO2e (issue #21 H1):
  /// computed as the rental computes its own (engine/money/energy.cpp energy_rows, billed by use):
  /// instance-hours busy / goodput x its power + the instance-hours billed and not busy /
  /// goodput x its idle power, x its PUE, at its intensity.
  std::string overflow_device_id;    ///< the rented device (for "no board power" reasons)
  double overflow_power_w = 0;       ///< rental count x board power, W (0: unknown)
  double overflow_idle_power_w = 0;  ///< the rental's idle_power_w, W
  double overflow_goodput = 1;       ///< the rental's goodput (0, 1]
  double overflow_pue = kDefaultDataCentrePue;  ///< the rental's PUE (its own, else 1.58)
  /// The rental's carbon intensity, g CO2e/kWh; nullopt: unknown (as for the rental itself).
  std::optional<double> overflow_grid_g_co2e_per_kwh = std::nullopt;
  std::string overflow_carbon_unknown_reason;  ///< the rental's own reason ("" = generic)
};

struct PlanInputs {
  ModelArch model;
  Quant quant;
  WorkloadInputs workload;
  SiteInputs site;
  FinanceInputs finance;
  MemoryPolicy memory_policy;
  std::vector<OptionInputs> options;
  /// The user's measured serving runs of the model (gputco calibrate,
  /// engine/serving/serving_run.hpp): options sized by the serving model refit it to those of their
  /// device and engine.
  std::vector<MeasuredServingRun> measured_runs;
  /// The rented option that owned options are compared with for break-even; empty =
  /// the feasible rent_hourly option with the lowest cost per hour of use.
  std::string baseline_option_id;
  /// What resolving the inputs found worth saying about the whole plan, one sentence each;
  /// make_plan puts them first in Plan::warnings.
  std::vector<std::string> warnings;
};

/// Checks every input's domain; throws EngineError naming the input and its value.
void validate_plan_inputs(const PlanInputs& inputs);

}  // namespace gputco
