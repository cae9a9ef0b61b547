// Energy and carbon of an option: electricity cost per hour of use, kWh at the wall month by
// month (load and idle, x PUE), CO2e from the grid's intensity, and their totals.
#pragma once

#include <optional>

#include "engine/money/month_factors.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// PUE of the site an owned option runs in: the option's own (colocation), else the site's.
double pue_of(const OptionInputs& option, const SiteInputs& site);

/// Tariff an owned option pays per kWh, plan currency: the option's own, else the site's.
double tariff_of(const OptionInputs& option, const SiteInputs& site);

/// PUE of the place an option's energy is drawn: its own, else the site's (owned, pue_of) or
/// the default data centre's, kDefaultDataCentrePue (rentals). Throws nothing.
double energy_pue_of(const OptionInputs& option, const SiteInputs& site);

/// The intensity an option's electricity carries, g CO2e/kWh: its own, else the site's for
/// owned hardware; nullopt when unknown (and for api options). Throws nothing.
std::optional<double> intensity_of(const OptionInputs& option, const SiteInputs& site);

/// Electricity cost per hour of use of one unit of an owned option: (count x load_power_w(device)
/// (the board power, or the power limit) + host_power_w) / 1000 x tariff x PUE, plan currency
/// per hour (zero when a colocation's power is in its kW fee).
double energy_cost_per_hour(const OptionInputs& option, const SiteInputs& site);

/// Fills the physical rows energy_kwh, idle_kwh and co2e_kg of `cash_flow` from its load and
/// units rows (see option_cash_flow for the formulas); api options keep zeros. `factors` are
/// month_factors() of the workload, site and finance the cash flow is for. A blend's rows
/// overflow_kwh and overflow_co2e_kg (issue #21 H1), added into energy_kwh and co2e_kg: the
/// overflow rental's energy as that rental computes its own when billed by use, overflow_load
/// x overflow_units_per_load(option, workload) x hours of use / its goodput x its count x
/// board power / 1000 x its PUE (kWh), x its g CO2e/kWh / 1000 (kg; 0 when unknown).
void energy_rows(const OptionInputs& option, const WorkloadInputs& workload, const SiteInputs& site,
                 const FinanceInputs& finance, const MonthFactors& factors, CashFlow& cash_flow);

/// Energy and carbon totals of one option from its physical rows (result.cash_flow) into
/// `result` (energy_kwh_total, co2e_kg_total, co2e_kg_per_million_tokens and the reasons when
/// unknown); `tokens` = the output tokens of its cost per million tokens. A blend (owned,
/// overflow = rent): the totals include the overflow rental's part and
/// result.overflow_energy splits them; its CO2e is unknown when the rental's intensity is and
/// it carried load (the reason names the owned part alone), its energy unknown when the
/// rental's board power is.
void energy_and_carbon(const OptionInputs& option, const SiteInputs& site, double tokens,
                       OptionResult& result);

}  // namespace gputco
