// The fleet a plan's demand needs and the load it puts on each replica (issue #43): an option
// sized by the serving model serves the demand with whole units (boxes) of replicas, each at
// the batch the latency targets allow; its users see what a replica does at the plan's load,
// the peak hour's and the mean hour's, not at the throughput-maximising batch.
#pragma once

#include <optional>
#include <vector>

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"
#include "engine/serving/serving_load.hpp"

namespace gputco {

/// Whole units the peak hour of each month needs, months 0..horizon (index 0: month 1's, as
/// CashFlow::load): whole_instances(load_m x peak_multiplier) (engine/finance/billing.hpp), at
/// least 1 while the load is positive; 0 where the load is 0. The units in service of an owned
/// option never go down (CashFlow::units); this row says what each month itself needs. Throws
/// nothing.
std::vector<double> units_needed(const std::vector<double>& load, double peak_multiplier);

/// The load month 1's demand puts on one replica of option `o` (serving model sized:
/// o.serving set), from its cash flow's load and units: at the peak hour and at an hour of
/// mean load. Replicas in service: an owned, reserved or monthly option's units in month 1 x
/// its replicas per unit (the owned units carry at most their capacity; the rest is
/// overflow); an always-on rental's instances at the peak (always_on_instances); an
/// autoscaled one's instances of that hour, max(min_instances, whole_instances(load)). Each
/// replica carries an equal share: (that hour's load in units / units in service) x the
/// replica's capacity, output tokens/s (serving_at_rate). A workload without a demand in
/// tokens carries concurrent_streams on the unit's replicas, always decoding
/// (serving_at_streams), the same at the peak and the mean. nullopt for an option the
/// serving model did not size or that is not feasible. Throws what serving_at_rate throws.
std::optional<PlanServingLoad> plan_serving_load(const PlanInputs& inputs, const OptionInputs& o,
                                                 const CashFlow& cash_flow);

}  // namespace gputco
