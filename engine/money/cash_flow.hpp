// Monthly cash flows of one option, one function per option kind (buy, rent by the hour,
// rent by the month, pay per token), and their sum by year.
#pragma once

#include <vector>

#include "engine/money/month_factors.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Capital cost of one unit of an owned option: devices plus host (count x price_per_gpu +
/// host_cost), plan currency.
double capex_of(const OptionInputs& option);

/// Does the option add whole units when its load grows? Owned hardware bought with overflow
/// add_units, reserved hourly terms and monthly servers do; on-demand and spot rentals, an
/// owned option that rents or drops its overflow, and an api do not. Throws nothing.
bool adds_units(const OptionInputs& option);

/// Is any cost line entered (engine/finance/cost_lines.hpp)? Without one every cost-line row of
/// option_cash_flow stays 0: each is a sum of products with an absent amount taken as 0,
/// times a count >= 0. Throws nothing.
bool any_cost_line(const CostLines& lines);

/// Monthly cash flows of one option over the horizon (see CashFlow for the timing), plan
/// currency, VAT excluded unless finance.vat_reclaimable is false. With m = 1..N, H_m = hours
/// of use in month m (hours_per_day x days of use), h_m = hours in month m (convention),
/// L_m = load (WorkloadInputs), u_m = units in service, R_m and T_m the rent and tariff
/// trend factors (1 + trend)^((m - 1) / 12):
/// - units: index 0 holds month 1's load; u_m = max(1, ceil(max(L_0..L_m) x P - 1e-9)) when
///   the option adds units (buy with overflow add_units, reserved terms, rent_monthly), else 1.
///   P = the day's peak multiplier (load_shape_of(workload), engine/finance/load_shape.hpp: 1 for a
///   demand spread evenly, peak_factor, or an hourly profile's largest share x its hours):
///   units are sized for the peak hour (issue #21). Where a formula below says min(L_m, u_m)
///   (load served) or max(0, L_m - u_m) (overflow), it is served_load and L_m - served_load over
///   the day's shape: the same when the day is flat or the units cover the peak; else hour by
///   hour, so overflow is rented only for what the peak hours leave over. Always-on rentals
///   run always_on_instances(L_m x P), autoscaled ones bill the shape's hours.
/// - buy: unit capex C = count x price_per_gpu + host_cost; capex[m] = C x (u_m - u_{m-1})
///   (u_{-1} = 0), zero under a lease; energy[m] = min(L_m, u_m) x (count x W +
///   host_power_w) / 1000 x H_m x tariff x PUE x T_m (0 when colocated power is not metered);
///   maintenance[m] = C x u_m x maintenance_per_year / 12; hosting[m] (colocation) = u_m x
///   (colo_per_kw_month x contracted_kw + colo_per_rack_unit_month x rack_units);
///   failures[m] = [m > warranty_months] x annual_failure_rate / 12 x count x price_per_gpu
///   x u_m; rent[m] (overflow = rent) = B'_m x overflow_rate_per_hour x R_m, B'_m =
///   billed_overflow_instance_hours(overflow_billing, L_m, u_m, overflow_units_per_load, shape,
///   D_m, A_m) (engine/finance/billing.hpp): the overflow rental billed as it bills its instances
///   (always on: ceil(max(0, L_m x P - u_m) x ratio) instances x A_m, 0 without overflow;
///   autoscaled: its minimum and granularity over the overflow of each stretch). Before issue
///   #21 it was max(0, L_m - u_m) x ratio x H_m (per load-hour); resale[N] =
///   -residual_fraction x sum(capex).
///   Financing covers the month-0 purchase: loan: financing[0] = -P (P = capex[0] x (1 -
///   down_payment_fraction)), financing[m] = PMT for m <= loan_term_months, and the balance
///   still owed after N instalments at N (annuity: PMT = r P / (1 - (1 + r)^-n), r =
///   loan_rate_per_year / 12; P / n when r = 0); lease: financing[m] = lease_rate_per_month x C
///   x u_m, plus at N the fees of the lease term left after the horizon (u_N units).
/// - rent_hourly on_demand/spot: rent[m] = rate_per_gpu_hour x count x B_m / goodput x R_m,
///   B_m = billed_instance_hours(hourly_billing, L_m, hours_per_day, D_m, A_m) (engine/
///   billing.hpp), A_m = availability_hours: always on, max(1, ceil(L_m - 1e-9)) x A_m;
///   autoscaled, min_instances x A_m + hour by hour the whole instances above them that the
///   hour's load needs, rounded up to the billing granularity (issue #43; before issue #21
///   it was H_m x L_m, billed for busy hours only).
///   reserved_1y/3y: rent[m] = rate_per_gpu_hour x count x u_m x h_m (every hour, no trend:
///   the rate is contracted; renewed at the same rate after each term), plus at N the
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
///   else kDefaultDataCentrePue for rentals; P = count x W + host_power_w (W =
///   load_power_w(device): the board power, or the power limit), host 0 for rentals; I =
///   idle_power_w): load_kwh[m] = min(L_m, u_m) x P / 1000 x H_m x PUE_o (owned; rent_monthly and
///   reserved the same with u_m units), = P x H_m x L_m / goodput / 1000 x PUE_o (on-demand, spot);
///   idle unit-hours[m] = max(0, u_m x h_m - min(L_m, u_m) x H_m) when the unit stays on
///   (owned with powered_off_when_idle = false; reserved and monthly rentals, billed all
///   month); max(0, u_m x H_m - min(L_m, u_m) x H_m) when an owned unit is switched off
///   outside the hours of use only (powered_off_when_idle = true: through the hours of use it
///   is on, and the unit-hours it does not serve draw idle power); on-demand and spot:
///   max(0, B_m - L_m x H_m) / goodput, B_m = billed_instance_hours (engine/finance/billing.hpp:
///   always on, the instances of the peak every hour of availability; autoscaled, its
///   minimum), the billed instance-hours not busy; idle_kwh[m] = idle unit-hours x I / 1000 x
///   PUE_o; energy_kwh[m] =
///   load_kwh[m] + idle_kwh[m]. co2e_kg[m] = energy_kwh[m] x g CO2e/kWh / 1000 when the
///   intensity is known, else 0 (and OptionResult says unknown). api: every physical row 0.
/// - energy (money, owned) = energy_kwh[m] x tariff x T_m, x 0 when colocated power is not
///   metered; computed as [min(L_m, u_m) x P / 1000 x tariff x PUE] x H_m x T_m + idle
///   unit-hours x I / 1000 x tariff x PUE x T_m (the first term is the formula before idle
///   power existed, kept bit for bit). Rentals pay their energy in the rent: no energy row.
/// - cost lines (engine/finance/cost_lines.hpp), months 1..N, 0 where not entered: staff[m] =
///   staff_per_month; licences[m] and support[m] with D_m devices in service (count x u_m;
///   on-demand and spot rentals count x max(min_instances, 1, ceil(L_m - 1e-9)); api 0);
///   owned: insurance[m] = insurance_per_year x C x u_m / 12 (leased hardware too);
///   colocated: colo_extras[m] = colo_extras_per_month x u_m.
/// - interest[m] (loan, accounting view, part of financing[m]) = r x the balance still owed
///   after m - 1 instalments (annuity_balance), m <= loan_term_months.
/// - vat[m] = (vat_reclaimable ? 0 : vat_rate) x (capex + energy + maintenance + hosting +
///   failures + rent, + financing under a lease, + colo_extras + licences + support); no VAT
///   on loan flows, resale, staff (wages) or insurance (exempt: VAT Directive 2006/112/EC,
///   art. 135(1)(a)).
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

/// Sets every row of `cash_flow` to 0 but discount_factor (an option that cannot serve the
/// demand is never priced, make_plan); the rows keep their sizes. Throws nothing.
void clear_cash_flow(CashFlow& cash_flow);

/// Which rows of a CashFlow option_cash_flow sets.
enum class CashFlowRows {
  all,  ///< every row
  /// Only what `total` and `discounted` are made of, for the Monte Carlo (issue #19), which
  /// keeps nothing else of a draw: the money rows summed into total (capex, energy,
  /// maintenance, hosting, failures, rent, financing, vat, resale and the cost lines), load,
  /// units, overflow_load, total and discounted. Left as they were (stale or empty): the
  /// physical rows (energy_kwh, idle_kwh, co2e_kg), the accounting rows (depreciation,
  /// book_value, interest), cumulative and discount_factor; none of them enters total.
  money,
};

/// The same with the option-independent month factors given: `factors` must be
/// month_factors(workload, site, finance) (or set by set_finance_factors and
/// set_workload_factors for these inputs). No std::pow and no allocation once `out` is sized:
/// for the Monte Carlo and sweeps, which compute many options under one set of factors. Bit
/// for bit the figures of the overloads above (they compute the factors and call this); with
/// `rows` = CashFlowRows::money the rows it sets are bit for bit those of CashFlowRows::all
/// (each by the same expression in the same order; tests/unit/engine_cash_flow_rows.cpp).
void option_cash_flow(const OptionInputs& option, const WorkloadInputs& workload,
                      const SiteInputs& site, const FinanceInputs& finance,
                      const MonthFactors& factors, CashFlow& out,
                      CashFlowRows rows = CashFlowRows::all);

/// Sums a cash flow by year: year 1 = index 0..12 (the start and months 1-12), year k =
/// months 12(k-1)+1..12k; a last partial year is summed as far as the horizon goes.
std::vector<double> annual_costs(const CashFlow& cash_flow);

}  // namespace gputco
