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
  buy,          ///< buy devices (new or used), run them on site
  rent_hourly,  ///< rent devices by the device-hour, billed for the hours used
  rent_monthly  ///< rent a private server by the month, billed whether used or not
};
enum class Condition { new_unit, used };

std::string to_string(OptionKind k);
std::string to_string(Condition c);

/// What is served and how hard. Hours of use per month = hours_per_day x days_per_month.
struct WorkloadInputs {
  int context_tokens = 8192;
  int concurrent_streams = 1;
  double hours_per_day = 8;              ///< hours per day the service runs at load
  double days_per_month = 730.0 / 24.0;  ///< default: 730 h per month at 24 h/day
  KvCacheType kv_cache = KvCacheType::f16;
};

/// Where owned hardware runs.
struct SiteInputs {
  double tariff_per_kwh = 0;  ///< electricity, plan currency per kWh
  double pue = 1.0;           ///< facility power / IT power (1.0 = no cooling overhead)
};

struct FinanceInputs {
  int horizon_months = 36;
  double discount_rate_per_year = 0.08;  ///< annual rate; discounting is monthly
  std::string currency = "EUR";          ///< every amount in PlanInputs is in this currency
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
  // rent_hourly
  double rate_per_gpu_hour = 0;
  // rent_monthly
  double price_per_month = 0;  ///< the whole server, per month
  double setup_fee = 0;        ///< once, at the start
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
  double energy_kwh_per_month = 0;  ///< at the wall, including PUE (owned options)
  double tokens_per_month = 0;      ///< generated tokens at full load during the hours of use
  CashFlow cash_flow;
  double total_cost = 0;                   ///< sum of all flows, resale netted
  double npv = 0;                          ///< present value of cost at the discount rate
  std::vector<double> annual_costs;        ///< year 1 = index 0..12, year k = 12(k-1)+1..12k
  std::optional<double> break_even_hours;  ///< hours of use at which owning = renting baseline
  std::optional<int> break_even_month;     ///< first month with cumulative own <= rent
  std::optional<double> cost_per_million_tokens;
  std::string note;  ///< why infeasible, or what the break-even is against
};

struct Plan {
  std::string currency;
  int horizon_months = 0;
  std::string baseline_option_id;  ///< the rental baseline actually used ("" if none)
  std::vector<OptionResult> options;
  std::optional<std::string> recommendation;  ///< the feasible option with the lowest NPV
  std::string recommendation_reason;
};

/// Monthly cash flows of one option over the horizon (see CashFlow for the timing):
/// buy: capex[0] = count x price_per_gpu + host_cost; energy[m>=1] = (count x board_power_w
/// + host_power_w) / 1000 x hours_per_day x days_per_month x tariff_per_kwh x pue;
/// maintenance[m>=1] = capex x maintenance_per_year / 12; resale[N] = -residual_fraction x
/// capex. rent_hourly: rent[m>=1] = rate_per_gpu_hour x count x hours_per_day x
/// days_per_month. rent_monthly: rent[0] = setup_fee, rent[m>=1] = price_per_month.
/// Preconditions are checked by make_plan.
CashFlow option_cash_flow(const OptionInputs& option, const WorkloadInputs& workload,
                          const SiteInputs& site, const FinanceInputs& finance);

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
/// below the rented one's; nullopt ("never within the horizon").
std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented);

/// Computes the plan: fit, speed, cash flows and metrics of every option.
/// Throws EngineError on inputs outside their domain (negative prices, zero horizon...).
Plan make_plan(const PlanInputs& inputs);

}  // namespace gputco
