#include "engine/fleet/fleet_load.hpp"

#include <algorithm>

#include "engine/finance/billing.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/fleet/serving_capacity_plan.hpp"

namespace gputco {

std::vector<double> units_needed(const std::vector<double>& load, double peak_multiplier) {
  std::vector<double> out(load.size(), 0.0);
  for (size_t m = 0; m < load.size(); ++m) out[m] = whole_instances(load[m] * peak_multiplier);
  return out;
}

namespace {

/// Units in service in an hour whose load is `load` (units of one unit's capacity), and the
/// load they carry: what the option runs that hour.
struct HourInService {
  double units = 0;
  double carried = 0;  ///< of the load, what the units carry (the rest is an overflow's)
};

HourInService in_service(const OptionInputs& o, double load, double peak_load, double units) {
  const bool by_use = o.kind == OptionKind::rent_hourly && term_months(o.term) == 0;
  if (!by_use) return {units, std::min(load, units)};
  if (o.hourly_billing.billing == Billing::always_on) {
    return {always_on_instances(peak_load), load};
  }
  return {std::max(static_cast<double>(o.hourly_billing.min_instances), whole_instances(load)),
          load};
}

/// One replica's figures when `hour` carries its load on its units' replicas.
ServingAtLoad replica_at(const PlanInputs& in, const OptionInputs& o, const HourInService& hour) {
  const ServingCapacity& c = *o.serving;
  const double rate =
      hour.units > 0 ? hour.carried / hour.units * c.output_tokens_per_s_per_replica : 0.0;
  return serving_at_rate(plan_serving_request(in, o), o.device, c, rate);
}

}  // namespace

std::optional<PlanServingLoad> plan_serving_load(const PlanInputs& in, const OptionInputs& o,
                                                 const CashFlow& cf) {
  if (!o.serving || !o.unservable_reason.empty() || cf.load.size() < 2) return std::nullopt;
  const ServingCapacity& c = *o.serving;
  const double replicas = std::max(1, c.replicas);
  PlanServingLoad out;
  if (!in.workload.tokens_per_day) {
    // Streams always in flight, spread over the unit's replicas.
    const double streams = in.workload.concurrent_streams / replicas;
    out.replicas_at_peak = out.replicas_at_mean = replicas;
    out.peak = out.mean = serving_at_streams(plan_serving_request(in, o), o.device, c, streams);
    return out;
  }
  const double load = cf.load[1];
  const double peak_load = load * load_shape_of(in.workload).peak_multiplier;
  const double units = cf.units.size() > 1 ? cf.units[1] : 0.0;
  const HourInService peak = in_service(o, peak_load, peak_load, units);
  const HourInService mean = in_service(o, load, peak_load, units);
  out.replicas_at_peak = peak.units * replicas;
  out.replicas_at_mean = mean.units * replicas;
  out.peak = replica_at(in, o, peak);
  out.mean = replica_at(in, o, mean);
  return out;
}

}  // namespace gputco
