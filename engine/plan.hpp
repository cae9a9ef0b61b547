// The whole plan: per option, fit, speed, monthly cash flows and metrics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/fit.hpp"
#include "engine/hardware.hpp"
#include "engine/speed.hpp"

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
  on_demand,    ///< billed for the hours used
  spot,         ///< billed for the hours used / goodput (interruptions waste some hours)
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
  KvCacheType kv_cache = KvCacheType::f16;
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
  /// First month of the plan (for calendar months only): year and month 1..12.
  int start_year = 2027;
  int start_month = 1;
};

/// One option, every figure resolved and in the plan currency.
struct OptionInputs {
  std::string id;
  OptionKind kind = OptionKind::buy;
  Device device;
  int count = 1;  ///< devices in the option (for rent_monthly: devices in the server)
  SplitMode split = SplitMode::layer;
  Backend backend = Backend::cuda;
  // buy
  Condition condition = Condition::new_unit;
  double price_per_gpu = 0;         ///< purchase price per device
  double host_cost = 0;             ///< rest of the system (chassis, CPU, PSU), once
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
  // rent_monthly
  double price_per_month = 0;  ///< the whole server, per month
  double setup_fee = 0;        ///< once, at the start
  int notice_months = 0;       ///< months paid after the horizon (notice given at its end)
  // api (kind api): prices per million tokens, plan currency
  double input_price_per_million = 0;   ///< per million prompt (input) tokens
  double output_price_per_million = 0;  ///< per million generated (output) tokens
  std::string api_model;                ///< the provider's model name, for labels
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
  double overflow_rate_per_hour = 0;  ///< overflow rental: rate x count / goodput, per hour
  double overflow_capacity_tokens_per_hour = 0;  ///< one overflow rental unit at load
};

struct PlanInputs {
  ModelArch model;
  Quant quant;
  WorkloadInputs workload;
  SiteInputs site;
  FinanceInputs finance;
  MemoryPolicy memory_policy;
  std::vector<OptionInputs> options;
  /// The rented option that owned options are compared with for break-even; empty =
  /// the feasible rent_hourly option with the lowest cost per hour of use.
  std::string baseline_option_id;
};

/// Monthly cash flows of one option, plan currency. Index 0 is the start of month 1
/// (purchases, setup fees); index m (1..horizon) is the end of month m (running costs,
/// paid in arrears; resale at the horizon). Every vector has horizon_months + 1 entries.
/// total = capex + energy + maintenance + hosting + failures + rent + financing + vat +
/// resale; depreciation and book_value are the accounting view, not cash, not in total.
struct CashFlow {
  std::vector<double> capex;
  std::vector<double> energy;
  std::vector<double> maintenance;
  std::vector<double> rent;
  std::vector<double> resale;  ///< negative: money coming back
  std::vector<double> total;
  std::vector<double> cumulative;
  std::vector<double> discount_factor;  ///< (1 + r)^(-m/12)
  std::vector<double> discounted;       ///< total x discount_factor
  std::vector<double> hosting;          ///< colocation: per kW and per rack unit, per month
  std::vector<double> failures;         ///< expected replacements after the warranty
  std::vector<double> financing;        ///< loan: -principal at 0, then instalments; lease: fees
  std::vector<double> vat;              ///< VAT when not reclaimable
  std::vector<double> depreciation;     ///< straight-line, accounting only (not in total)
  std::vector<double> book_value;       ///< capex to date - depreciation to date (accounting)
  std::vector<double> load;             ///< demand in units of this option (index 0: month 1's)
  std::vector<double> units;            ///< units in service (owned, reserved, monthly servers)
  std::vector<double> overflow_load;    ///< load rented from the overflow option
  // Physical rows (not money, not in total). Known only where OptionResult says so
  // (energy_kwh_total / co2e_kg_total set); zeros otherwise (api options: unknown).
  std::vector<double> energy_kwh;  ///< kWh at the wall in month m (load + idle, x PUE)
  std::vector<double> idle_kwh;    ///< of which idle (powered, not serving), x PUE
  std::vector<double> co2e_kg;     ///< energy_kwh x g CO2e/kWh / 1000 (0 when unknown)
};

struct OptionResult {
  std::string id;
  OptionKind kind = OptionKind::buy;
  FitResult fit;
  SpeedEstimate speed;
  int devices_needed = 0;      ///< smallest count of this device that holds the model (0: none)
  bool feasible = false;       ///< the model fits (fits or tight) on the option's devices
  double power_at_load_w = 0;  ///< devices + host at load (owned options)
  double hours_per_month = 0;  ///< hours of use per month
  /// Owned options: kWh at the wall in a month of full load during the hours of use (power at
  /// load x hours of use x PUE), a capacity figure; what the plan's demand really draws,
  /// idle included, is CashFlow::energy_kwh (JSON energy_kwh).
  double energy_kwh_per_month = 0;
  double tokens_per_month = 0;  ///< generated tokens at full load during the hours of use
  CashFlow cash_flow;
  double total_cost = 0;                   ///< sum of all flows, resale netted
  double npv = 0;                          ///< present value of cost at the discount rate
  std::vector<double> annual_costs;        ///< year 1 = index 0..12, year k = 12(k-1)+1..12k
  std::optional<double> break_even_hours;  ///< hours of use at which owning = renting baseline
  /// First month in which the owned option's cumulative cost, having been above the
  /// baseline's, is at or below it (see break_even_month()); nullopt: never, or n/a when
  /// comparison_na_reason says why.
  std::optional<int> break_even_month;
  /// Total cost / generated (output) tokens of the stated demand over the horizon x 1e6: the
  /// same meaning for every option (hardware, rentals, api). Tokens = sum over months of
  /// tokens_per_day x growth factor x days of use when tokens_per_day is given, else (no
  /// stated demand; never with an api option) the option's own aggregate decode capacity
  /// during the hours of use. nullopt when infeasible or no tokens.
  std::optional<double> cost_per_million_tokens;
  std::string note;          ///< why infeasible, or what the break-even is against
  double cost_per_year = 0;  ///< total_cost / (horizon_months / 12)
  /// Months until the cumulative saving of owning against the baseline turns non-negative,
  /// interpolated within the month; nullopt: never within the horizon (or not owned).
  std::optional<double> payback_months;
  /// IRR of owning against the baseline (baseline total - own total by month), annualised
  /// (1 + monthly)^12 - 1; nullopt ("n/a") when the flows do not change sign or no root, or
  /// when comparison_na_reason is set (no initial outlay, no use).
  std::optional<double> irr;
  /// Why payback, IRR and (when nullopt) the break-even month are not applicable rather than
  /// "never" for an owned option compared with the baseline: no initial outlay (a lease, a loan
  /// without down payment: nothing is invested up front to pay back), owning never costs
  /// more than the baseline, or the baseline costs nothing (no hours of use). "" otherwise.
  std::string comparison_na_reason;
  /// Owned option whose cumulative cost is never above the baseline's: its break-even month
  /// is "n/a" (nothing to break even), not "never".
  bool never_dearer_than_baseline = false;
  /// What the figures of this option leave out or assume, one sentence each, for every report
  /// (prefill not counted for a device without FP16 throughput, energy cost left out for a
  /// device without board power, payback and IRR not applicable, ...). Not errors.
  std::vector<std::string> warnings;
  /// The device's board power is unknown (Device::board_power_w 0): energy and CO2e are
  /// unknown, and an owned option's energy cost counts the host's draw only.
  bool power_unknown = false;
  /// Hours of use per day at which owning costs the same as the baseline over the horizon.
  std::optional<double> break_even_hours_per_day;
  std::optional<double> cost_per_user_per_month;

  // Pay-per-token API (kind api) and the break-even volume against it. An api option is
  // feasible with fit.verdict = fits and zero memory figures (the provider serves the model),
  // devices_needed 0, speed 0, power 0.
  /// Owned and rented options: the output tokens per day of use (same token mix, growth and
  /// hours; requests scaled alike) at which this option's total cost over the horizon equals
  /// Plan::api_reference_option_id's (the feasible api option with the lowest total cost),
  /// both recomputed through option_cash_flow at that volume. The lowest such volume in [0,
  /// capacity_tokens_per_hour x hours_per_day] (one unit's output in the stated hours of use),
  /// found by a 200-point scan then bisection; 0 when this option is no dearer even at (near)
  /// zero volume; nullopt ("never") when the api stays cheaper up to that capacity, when there
  /// is no api option, or for api options themselves.
  std::optional<double> break_even_tokens_per_day = std::nullopt;
  /// api: the demand's peak tokens per minute (input + output, the month with the highest
  /// growth factor) spread over the hours of use: (1 + input_tokens_per_output_token) x
  /// tokens_per_day x max growth factor / (hours_per_day x 60); nullopt when not computable.
  std::optional<double> peak_tokens_per_minute = std::nullopt;
  /// api: requests_per_day x max growth factor / (hours_per_day x 60); nullopt without
  /// requests_per_day.
  std::optional<double> peak_requests_per_minute = std::nullopt;
  /// api: the peak tokens or requests per minute exceed a published limit (the workbook's
  /// Checks sheet shows it; the option stays comparable: batch, spread, or buy a higher tier).
  bool rate_limit_exceeded = false;

  // Energy and carbon over the horizon (physical; the money of energy is CashFlow::energy).
  /// kWh at the wall over the horizon (sum of CashFlow::energy_kwh): owned options' load and
  /// idle energy x PUE; rentals' estimate from the rented devices' board power (x their
  /// idle share when billed all month) x the data centre's PUE. nullopt for api options: no
  /// provider publishes energy per token (energy_unknown_reason says so), never 0.
  std::optional<double> energy_kwh_total = std::nullopt;
  std::string energy_unknown_reason;  ///< why energy_kwh_total is nullopt ("" when known)
  /// Carbon intensity used, g CO2e/kWh (the option's, else the site's for owned options).
  std::optional<double> grid_g_co2e_per_kwh = std::nullopt;
  /// kg CO2e over the horizon = energy_kwh_total x grid_g_co2e_per_kwh / 1000 (sum of
  /// CashFlow::co2e_kg); nullopt when the energy or the intensity is unknown.
  std::optional<double> co2e_kg_total = std::nullopt;
  /// co2e_kg_total / the tokens of cost_per_million_tokens x 1e6 (kg per million output
  /// tokens); nullopt when either is unknown.
  std::optional<double> co2e_kg_per_million_tokens = std::nullopt;
  std::string co2e_unknown_reason;  ///< why co2e_kg_total is nullopt ("" when known)
  /// What the model added month by month (units bought, overflow rented).
  struct Event {
    int month = 0;
    std::string what;
  };
  std::vector<Event> events;
};

/// The plan's calendar month by month (index 0..horizon, as CashFlow), shared by every
/// option's flows; the workbook's timeline rows show it.
struct Timeline {
  std::vector<double> hours_in_month;  ///< 24-hour billing hours of month m (0 at index 0)
  std::vector<double> days_of_use;     ///< days of use in month m (0 at index 0)
  std::vector<double> hours_of_use;    ///< hours_per_day x days_of_use
  std::vector<double> growth_factor;   ///< demand factor (1 + growth)^max(0, m - 1)
  std::vector<double> rent_factor;     ///< hourly rental trend (1 + trend)^(max(0, m - 1) / 12)
  std::vector<double> tariff_factor;   ///< electricity trend (1 + trend)^(max(0, m - 1) / 12)
  std::vector<double> api_factor;      ///< API price trend (1 + trend)^(max(0, m - 1) / 12)
};

struct Plan {
  Timeline timeline;
  std::string currency;
  int horizon_months = 0;
  std::string baseline_option_id;  ///< the rental baseline actually used ("" if none)
  std::vector<OptionResult> options;
  std::optional<std::string> recommendation;  ///< the feasible option with the lowest NPV
  std::string recommendation_reason;
  /// The api option the others' break_even_tokens_per_day is against: the feasible api
  /// option with the lowest total cost ("" when the plan has none).
  std::string api_reference_option_id;
  /// What the whole plan adjusted or assumes (e.g. days of use capped at the days of a
  /// month), one sentence each, for every report.
  std::vector<std::string> warnings;
};

/// Monthly cash flows of one option over the horizon (see CashFlow for the timing), plan
/// currency, VAT excluded unless finance.vat_reclaimable is false. With m = 1..N, H_m = hours
/// of use in month m (hours_per_day x days of use), h_m = hours in month m (convention),
/// L_m = load (WorkloadInputs), u_m = units in service, R_m and T_m the rent and tariff
/// trend factors (1 + trend)^((m - 1) / 12):
/// - units: index 0 holds month 1's load; u_m = max(1, ceil(max(L_0..L_m) - 1e-9)) when the
///   option adds units (buy with overflow add_units, reserved terms, rent_monthly), else 1.
/// - buy: unit capex C = count x price_per_gpu + host_cost; capex[m] = C x (u_m - u_{m-1})
///   (u_{-1} = 0), zero under a lease; energy[m] = min(L_m, u_m) x (count x board_power_w +
///   host_power_w) / 1000 x H_m x tariff x PUE x T_m (0 when colocated power is not metered);
///   maintenance[m] = C x u_m x maintenance_per_year / 12; hosting[m] (colocation) = u_m x
///   (colo_per_kw_month x contracted_kw + colo_per_rack_unit_month x rack_units);
///   failures[m] = [m > warranty_months] x annual_failure_rate / 12 x count x price_per_gpu
///   x u_m; rent[m] (overflow = rent) = max(0, L_m - u_m) x overflow_units_per_load x H_m x
///   overflow_rate_per_hour x R_m; resale[N] = -residual_fraction x sum(capex).
///   Financing covers the month-0 purchase: loan: financing[0] = -P (P = capex[0] x (1 -
///   down_payment_fraction)), financing[m] = PMT for m <= loan_term_months, and the balance
///   still owed after N instalments at N (annuity: PMT = r P / (1 - (1 + r)^-n), r =
///   loan_rate_per_year / 12; P / n when r = 0); lease: financing[m] = lease_rate_per_month x C
///   x u_m, plus at N the fees of the lease term left after the horizon (u_N units).
/// - rent_hourly on_demand/spot: rent[m] = rate_per_gpu_hour x count x H_m x L_m / goodput x
///   R_m. reserved_1y/3y: rent[m] = rate_per_gpu_hour x count x u_m x h_m (every hour, no
///   trend: the rate is contracted; renewed at the same rate after each term), plus at N the
///   unexpired term (ceil(N / term) x term - N months) x rate x count x u_N x average hours per
///   month of the convention (730, 720, 730.5 for calendar).
/// - rent_monthly: rent[0] = setup_fee x u_0; rent[m] = price_per_month x u_m + setup_fee x
///   (u_m - u_{m-1}), plus at N notice_months x price_per_month x u_N (notice is given at the
///   end of the last month needed, the horizon, and the notice months are paid then).
/// - api: rent[m] (the per-token fees) = D_m x G_m x (tokens_per_day x
///   input_tokens_per_output_token x input_price_per_million + tokens_per_day x
///   output_price_per_million) / 1e6 x A_m, with D_m the days of use, G_m = (1 +
///   growth_per_month)^(m - 1) and A_m = (1 + api_price_trend_per_year)^((m - 1) / 12). It does
///   not depend on hours_per_day at a fixed tokens_per_day (only the rate-limit check does);
///   no capex, energy, units or load (a provider's capacity is not ours: load rows are 0).
/// - energy, physical rows (kWh; PUE_o = the option's pue, else the site's for owned options,
///   else kDefaultDataCentrePue for rentals; P = count x board_power_w + host_power_w, host 0
///   for rentals; I = idle_power_w):
///   load_kwh[m] = min(L_m, u_m) x P / 1000 x H_m x PUE_o (owned; rent_monthly and reserved
///   the same with u_m units), = P x H_m x L_m / goodput / 1000 x PUE_o (on-demand, spot);
///   idle unit-hours[m] = max(0, u_m x h_m - min(L_m, u_m) x H_m) when the unit stays on
///   (owned with powered_off_when_idle = false; reserved and monthly rentals, billed all
///   month), else 0; idle_kwh[m] = idle unit-hours x I / 1000 x PUE_o; energy_kwh[m] =
///   load_kwh[m] + idle_kwh[m]. co2e_kg[m] = energy_kwh[m] x g CO2e/kWh / 1000 when the
///   intensity is known, else 0 (and OptionResult says unknown). api: every physical row 0.
/// - energy (money, owned) = energy_kwh[m] x tariff x T_m, x 0 when colocated power is not
///   metered; computed as [min(L_m, u_m) x P / 1000 x tariff x PUE] x H_m x T_m + idle
///   unit-hours x I / 1000 x tariff x PUE x T_m (the first term is the formula before idle
///   power existed, kept bit for bit). Rentals pay their energy in the rent: no energy row.
/// - vat[m] = (vat_reclaimable ? 0 : vat_rate) x (capex + energy + maintenance + hosting +
///   failures + rent, + financing under a lease); no VAT on loan flows or resale.
/// - depreciation[m] (m >= 1) = sum of capex[k] for m - useful_life <= k < m, / useful_life
///   (straight line, SLN(cost, 0, life)); book_value[m] = sum(capex[0..m]) -
///   sum(depreciation[0..m]).
/// Preconditions are checked by make_plan (validate_plan_inputs). Allocates only the rows.
CashFlow option_cash_flow(const OptionInputs& option, const WorkloadInputs& workload,
                          const SiteInputs& site, const FinanceInputs& finance);

/// The same into `out`, reusing its rows' capacity (no allocation once sized): for loops
/// (Monte Carlo) that recompute one option many times.
void option_cash_flow(const OptionInputs& option, const WorkloadInputs& workload,
                      const SiteInputs& site, const FinanceInputs& finance, CashFlow& out);

/// Hours in month m (1-based) under the workload's convention: 730, 720, or the calendar
/// month's days x 24 (from finance.start_year / start_month). Throws nothing.
double hours_in_month(const WorkloadInputs& workload, const FinanceInputs& finance, int month);

/// Output tokens one unit serves per hour of device time when every output token brings
/// `input_tokens_per_output_token` prompt tokens with it:
///   3600 / (1 / aggregate_decode_tokens_per_s + input_tokens_per_output_token /
///   prefill_tokens_per_s).
/// Decode is bound by memory bandwidth, prefill by compute (DOMAIN S12; speed.hpp); both
/// take the same device's time, because llama.cpp's server runs a prompt's prefill and the
/// streams' decode steps on the same GPUs in one batch schedule. A simplification: it counts
/// them one after the other, where a batch that mixes them overlaps a little (decode leaves
/// compute idle, so this is the conservative end), and a prompt cache that reuses a shared
/// prefix would need less prefill. prefill_tokens_per_s <= 0 (unknown) or no input tokens:
/// decode only, aggregate_decode_tokens_per_s x 3600. Returns 0 when the decode rate is not
/// positive. Throws nothing.
double capacity_tokens_per_hour(double aggregate_decode_tokens_per_s, double prefill_tokens_per_s,
                                double input_tokens_per_output_token);

/// Prompt length (tokens per request) at which the plan estimates prefill FLOPs (attention
/// grows with the position): input tokens per day / requests_per_day when both are known, else
/// context_tokens (the longest prompt a conversation holds: the conservative end); at least 1
/// and at most context_tokens. Throws nothing.
int prefill_prompt_tokens(const WorkloadInputs& workload);

/// Days of use in month m (1-based): days_per_month, or the convention's hours / 24 when
/// days_follow_convention; never more than the month holds under the convention (hours in
/// month m / 24: 30.42 at 730, 30 at 720, the calendar month's days), so that hours of use
/// (hours_per_day x days of use) never exceed the hours in the month. Throws nothing.
double days_of_use(const WorkloadInputs& workload, const FinanceInputs& finance, int month);

/// Month-1 load of an option in units of its own capacity: tokens_per_day /
/// (capacity_tokens_per_hour x hours_per_day) when tokens_per_day is given and the capacity
/// known (0 when hours_per_day is 0), else 1 (the stated workload). api: 0 (a provider's
/// capacity is not ours to measure: no load; its bill follows tokens_per_day).
double base_load(const OptionInputs& option, const WorkloadInputs& workload);

/// The workload at another volume: tokens_per_day = t, requests_per_day scaled by t / the
/// old tokens_per_day (the token mix stays); hours and everything else unchanged.
WorkloadInputs at_tokens_per_day(const WorkloadInputs& workload, double tokens_per_day);

/// Output tokens per day of use (see OptionResult::break_even_tokens_per_day) at which the
/// option's total over the horizon equals the api option's; both through option_cash_flow.
/// nullopt when `option` is an api option, `api` is not one, or no crossing lies in [0,
/// option.capacity_tokens_per_hour x hours_per_day]. Needs prepared inputs.
std::optional<double> break_even_tokens_per_day(const OptionInputs& option, const OptionInputs& api,
                                                const WorkloadInputs& workload,
                                                const SiteInputs& site,
                                                const FinanceInputs& finance);

/// Overflow rental units per unit of the option's load: own capacity / the rental's capacity
/// when tokens_per_day is given and both are known, else 1 (both carry the stated workload).
double overflow_units_per_load(const OptionInputs& option, const WorkloadInputs& workload);

/// The workload at another utilization: hours_per_day = h, tokens_per_day (and
/// requests_per_day) scaled by h / the old hours_per_day (the load per hour of use stays),
/// unchanged when the old hours were 0. An api option's fees therefore rise in proportion to
/// h in the crossover sweep and the hours tornado bar (its volume moves with the hours).
WorkloadInputs at_hours_per_day(const WorkloadInputs& workload, double hours_per_day);

/// The plan's timeline (see Timeline) for these inputs. Throws nothing.
Timeline plan_timeline(const WorkloadInputs& workload, const SiteInputs& site,
                       const FinanceInputs& finance);

/// Average hours per month of a convention (for commitments running past the horizon): 730,
/// 720, 730.5 (365.25 days x 24 / 12) for calendar months.
double average_hours_per_month(HoursConvention convention);

/// Fills the derived OptionInputs fields (capacity_tokens_per_hour from fit and speed when
/// it is 0, base_load, and the overflow rental's rate and units per load) and checks the
/// overflow links. Idempotent; call it again after changing a rental's rate.
/// Throws EngineError when an overflow option is missing or not a rent_hourly option, or
/// when a capacity must be computed and the model or a device is outside its domain.
void prepare_plan_inputs(PlanInputs& inputs);

/// Checks every input's domain; throws EngineError naming the input and its value.
void validate_plan_inputs(const PlanInputs& inputs);

/// Sums a cash flow by year: year 1 = index 0..12 (the start and months 1-12), year k =
/// months 12(k-1)+1..12k; a last partial year is summed as far as the horizon goes.
std::vector<double> annual_costs(const CashFlow& cash_flow);

/// Hours of use over the horizon at which owning costs the same as renting (DOMAIN E2:
/// purchase price / hourly rate). Owning's fixed cost = capex x (1 - residual_fraction) +
/// maintenance over the horizon; each hour of use costs its electricity (power x tariff x
/// PUE) when owned and rate_per_gpu_hour x count when rented.
/// Returns nullopt ("never") when renting an hour costs no more than powering the owned
/// hardware for it. Throws EngineError unless `owned` is buy and `rented` rent_hourly.
std::optional<double> break_even_hours(const OptionInputs& owned, const OptionInputs& rented,
                                       const SiteInputs& site, const FinanceInputs& finance);

/// The first month index (0..horizon) at which the owned option's cumulative cost is at or
/// below the rented one's after having been above it in an earlier month (owning must first
/// cost more, then catch up: a month-0 tie of two zero sums is no break-even); nullopt when
/// that never happens within the horizon, including when owning never costs more.
std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented);

/// Is there an initial outlay in `saving` (baseline - own, index 0 = month 0)? True when the
/// month-0 saving is negative beyond rounding: money is invested up front (capex, a down
/// payment) that later savings may pay back. A lease or a loan without down payment has
/// none: payback and IRR do not apply.
bool has_initial_outlay(const std::vector<double>& saving);

/// Payback period of an investment whose incremental monthly flows are `saving` (index 0 =
/// month 0, negative: the outlay): the first month after it when the running sum turns
/// non-negative, interpolated linearly within that month. nullopt when it never does, and
/// when there is no initial outlay (has_initial_outlay false: nothing to pay back).
std::optional<double> payback_months(const std::vector<double>& saving);

/// Hours of use per day (0..24) at which the owned option's total cost over the horizon
/// equals the rented one's, solved by bisection on the totals of option_cash_flow with both
/// options at the same hours per day (tokens_per_day scaled with it: the load per hour of
/// use stays the same). 0 when owning is no dearer even unused; nullopt ("never") when
/// renting is still cheaper at 24 h/day. Needs prepared inputs.
std::optional<double> break_even_hours_per_day(const OptionInputs& owned,
                                               const OptionInputs& rented,
                                               const WorkloadInputs& workload,
                                               const SiteInputs& site,
                                               const FinanceInputs& finance);

/// Computes the plan: fit, speed, cash flows and metrics of every option.
/// Throws EngineError on inputs outside their domain (negative prices, zero horizon...).
Plan make_plan(const PlanInputs& inputs);

}  // namespace gputco
