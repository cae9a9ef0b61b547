#include "engine/money/energy.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "engine/base/units.hpp"
#include "engine/finance/billing.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/hardware/power_limit.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {

double pue_of(const OptionInputs& o, const SiteInputs& site) {
  return o.pue.value_or(site.pue);
}

double tariff_of(const OptionInputs& o, const SiteInputs& site) {
  return o.tariff_per_kwh.value_or(site.tariff_per_kwh);
}

/// Electricity cost per hour of use of one unit of an owned option: power x tariff x PUE
/// (zero when a colocation's power is in its kW fee).
double energy_cost_per_hour(const OptionInputs& o, const SiteInputs& site) {
  if (o.hosting == Hosting::colocation && !o.power_metered) return 0;
  const double power_w = o.count * gputco::load_power_w(o.device) + o.host_power_w;
  return power_w / kWattsPerKilowatt * tariff_of(o, site) * pue_of(o, site);
}

double energy_pue_of(const OptionInputs& o, const SiteInputs& site) {
  if (o.kind == OptionKind::buy) return pue_of(o, site);
  return o.pue.value_or(kDefaultDataCentrePue);
}

std::optional<double> intensity_of(const OptionInputs& o, const SiteInputs& site) {
  if (o.kind == OptionKind::api) return std::nullopt;
  if (o.grid_g_co2e_per_kwh) return o.grid_g_co2e_per_kwh;
  if (o.kind == OptionKind::buy) return site.grid_g_co2e_per_kwh;
  return std::nullopt;
}

namespace {

/// Power of one unit at load, W: devices + host (rentals: devices only, the host unknown).
double load_power_w(const OptionInputs& o) {
  const double devices = o.count * gputco::load_power_w(o.device);
  return o.kind == OptionKind::buy ? devices + o.host_power_w : devices;
}

/// Is the unit powered every hour of the month (idle power in the unit-hours it does not
/// serve)? Else an owned unit is powered through the hours of use only, and an on-demand
/// rental for its billed hours (energy_rows).
bool stays_on(const OptionInputs& o) {
  switch (o.kind) {
    case OptionKind::buy:
      return !o.powered_off_when_idle;
    case OptionKind::rent_hourly:
      return term_months(o.term) > 0;
    case OptionKind::rent_monthly:
      return true;
    case OptionKind::api:
      return false;
  }
  return false;
}

/// The reason text after "unknown: " (the engine's reasons begin so).
std::string without_unknown(const std::string& reason) {
  const std::string prefix = "unknown: ";
  return reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
}

/// A blend's split of its energy and CO2e into r.overflow_energy (issue #21 H1), from the
/// rows energy_rows filled; `owned_intensity` = the owned units' g CO2e/kWh. Returns false
/// (energy unknown, reasons set) when the rental carried load but its board power is unknown.
bool overflow_energy(const OptionInputs& o, std::optional<double> owned_intensity,
                     OptionResult& r) {
  const CashFlow& cf = r.cash_flow;
  const double overflow_load =
      std::accumulate(cf.overflow_load.begin(), cf.overflow_load.end(), 0.0);
  if (overflow_load > 0 && !(o.overflow_power_w > 0)) {
    r.energy_unknown_reason = "unknown: the catalog has no board power for " +
                              o.overflow_device_id + ", the device of the overflow rental " +
                              o.overflow_option_id;
    r.co2e_unknown_reason = r.energy_unknown_reason;
    return false;
  }
  OptionResult::OverflowEnergy split;
  split.option_id = o.overflow_option_id;
  split.overflow_kwh = std::accumulate(cf.overflow_kwh.begin(), cf.overflow_kwh.end(), 0.0);
  split.owned_kwh =
      std::accumulate(cf.energy_kwh.begin(), cf.energy_kwh.end(), 0.0) - split.overflow_kwh;
  split.overflow_grid_g_co2e_per_kwh = o.overflow_grid_g_co2e_per_kwh;
  if (owned_intensity) split.owned_co2e_kg = split.owned_kwh * *owned_intensity / kGramsPerKilogram;
  if (o.overflow_grid_g_co2e_per_kwh || !(split.overflow_kwh > 0)) {
    // Nothing rented: 0 kg whatever its intensity.
    split.overflow_co2e_kg =
        std::accumulate(cf.overflow_co2e_kg.begin(), cf.overflow_co2e_kg.end(), 0.0);
  } else {
    const std::string rental_reason =
        !o.overflow_carbon_unknown_reason.empty()
            ? without_unknown(o.overflow_carbon_unknown_reason)
            : "the provider's region has no grid carbon intensity (set grid_region or "
              "grid_g_co2e_per_kwh on " +
                  o.overflow_option_id + ")";
    split.overflow_co2e_unknown_reason =
        "unknown: the overflow rented from " + o.overflow_option_id + " (" +
        fmt::format("{:.0f}", split.overflow_kwh) +
        " kWh) has no carbon intensity: " + rental_reason +
        (split.owned_co2e_kg
             ? fmt::format("; the owned units alone: {:.3f} t", *split.owned_co2e_kg / 1000.0)
             : std::string());
  }
  r.overflow_energy = split;
  return true;
}

}  // namespace

/// Fills the physical rows energy_kwh, idle_kwh and co2e_kg from load and units (see
/// option_cash_flow); api options keep zeros.
void energy_rows(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                 const FinanceInputs& f, const MonthFactors& x, CashFlow& cf) {
  if (o.kind == OptionKind::api) return;
  const auto last = static_cast<size_t>(f.horizon_months);
  const double pue = energy_pue_of(o, site);
  const double load_kw = load_power_w(o) / kWattsPerKilowatt;
  const double idle_kw = o.idle_power_w / kWattsPerKilowatt;
  const bool on = stays_on(o);
  const bool by_use = o.kind == OptionKind::rent_hourly && term_months(o.term) == 0;
  const auto intensity = intensity_of(o, site);
  const DailyLoadShape& shape = x.shape;
  for (size_t m = 1; m <= last; ++m) {
    const double hours = x.hours_of_use[m];
    double load_kwh = 0, idle_unit_hours = 0;
    if (by_use) {
      load_kwh = load_kw * hours * cf.load[m] / o.goodput * pue;
      // The instance-hours billed but not busy (always on, or an autoscaler's minimum) are
      // powered and idle: the billed hours less the busy ones, / goodput as the bill.
      const double billed = billed_instance_hours(o.hourly_billing, cf.load[m], shape,
                                                  x.days_of_use[m], x.availability_hours[m]);
      idle_unit_hours = std::max(0.0, billed - cf.load[m] * hours) / o.goodput;
    } else {
      const double served = served_load(cf.load[m], cf.units[m], shape);
      load_kwh = served * load_kw * hours * pue;
      // Switched off when idle: powered through the hours of use only, idle where not serving.
      const double powered_hours = on ? x.hours_in_month[m] : hours;
      idle_unit_hours = std::max(0.0, cf.units[m] * powered_hours - served * hours);
    }
    cf.idle_kwh[m] = idle_unit_hours * idle_kw * pue;
    cf.energy_kwh[m] = load_kwh + cf.idle_kwh[m];
    if (intensity) cf.co2e_kg[m] = cf.energy_kwh[m] * *intensity / kGramsPerKilogram;
  }
  if (o.kind != OptionKind::buy || o.overflow != Overflow::rent) return;
  // The overflow rental's part, as that rental computes its own energy (billed by use, the
  // by_use branch above): its instances busy x hours of use / goodput x its power, + the
  // instance-hours billed and not busy / goodput x its idle power, x its PUE. Its busy
  // instances: the load the owned units leave over x rental instances per unit of owned load;
  // its billed hours as its bill (engine/money/cash_flow.cpp owned_flows).
  const double instances_per_load = overflow_units_per_load(o, w);
  const double overflow_kw = o.overflow_power_w / kWattsPerKilowatt;
  const double overflow_idle_kw = o.overflow_idle_power_w / kWattsPerKilowatt;
  for (size_t m = 1; m <= last; ++m) {
    const double busy = cf.overflow_load[m] * instances_per_load * x.hours_of_use[m];
    const double billed = billed_overflow_instance_hours(o.overflow_billing, cf.load[m],
                                                         cf.units[m], instances_per_load, shape,
                                                         x.days_of_use[m], x.availability_hours[m]);
    const double idle = std::max(0.0, billed - busy);
    cf.overflow_kwh[m] =
        (overflow_kw * busy + overflow_idle_kw * idle) / o.overflow_goodput * o.overflow_pue;
    cf.energy_kwh[m] += cf.overflow_kwh[m];
    if (o.overflow_grid_g_co2e_per_kwh) {
      cf.overflow_co2e_kg[m] =
          cf.overflow_kwh[m] * *o.overflow_grid_g_co2e_per_kwh / kGramsPerKilogram;
      cf.co2e_kg[m] += cf.overflow_co2e_kg[m];
    }
  }
}

/// Energy and carbon totals of one option from its physical rows; `tokens` = the tokens of
/// its cost per million tokens.
void energy_and_carbon(const OptionInputs& o, const SiteInputs& site, double tokens,
                       OptionResult& r) {
  const CashFlow& cf = r.cash_flow;
  if (o.kind == OptionKind::api) {
    r.energy_unknown_reason = "unknown: the provider publishes no energy per token for " +
                              (o.api_model.empty() ? std::string("this API") : o.api_model);
    r.co2e_unknown_reason = r.energy_unknown_reason;
    return;
  }
  if (!(o.device.board_power_w > 0)) {
    // Unknown, never 0: the kWh rows hold only what is known (an owned host's draw).
    r.energy_unknown_reason = "unknown: the catalog has no board power for " + o.device.id;
    r.co2e_unknown_reason = r.energy_unknown_reason;
    r.grid_g_co2e_per_kwh = intensity_of(o, site);
    return;
  }
  r.grid_g_co2e_per_kwh = intensity_of(o, site);
  if (o.kind == OptionKind::buy && o.overflow == Overflow::rent &&
      !overflow_energy(o, r.grid_g_co2e_per_kwh, r)) {
    return;
  }
  r.energy_kwh_total = std::accumulate(cf.energy_kwh.begin(), cf.energy_kwh.end(), 0.0);
  if (!r.grid_g_co2e_per_kwh) {
    r.co2e_unknown_reason =
        !o.carbon_unknown_reason.empty() ? o.carbon_unknown_reason
        : o.kind == OptionKind::buy
            ? "unknown: no grid carbon intensity for the site (set grid_region or "
              "grid_g_co2e_per_kwh)"
            : "unknown: the provider's region has no grid carbon intensity (set "
              "grid_region or grid_g_co2e_per_kwh on the option)";
    return;
  }
  if (r.overflow_energy && !r.overflow_energy->overflow_co2e_kg) {
    r.co2e_unknown_reason = r.overflow_energy->overflow_co2e_unknown_reason;
    return;
  }
  r.co2e_kg_total = std::accumulate(cf.co2e_kg.begin(), cf.co2e_kg.end(), 0.0);
  if (r.feasible && tokens > 0) {
    r.co2e_kg_per_million_tokens = *r.co2e_kg_total / tokens * kTokensPerMillion;
  }
}

}  // namespace gputco
