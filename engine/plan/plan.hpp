// The whole plan: per option, fit, speed, monthly cash flows and metrics. This header
// gathers the plan's parts (inputs, results, timeline, capacity, cash flows, energy, metrics)
// and declares the two steps that orchestrate them.
#pragma once

#include "engine/fleet/capacity.hpp"
#include "engine/money/cash_flow.hpp"
#include "engine/money/energy.hpp"
#include "engine/money/metrics.hpp"
#include "engine/money/timeline.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Fills the derived OptionInputs fields (capacity_tokens_per_hour from fit and speed when
/// it is 0, base_load, and the overflow rental's rate and units per load) and checks the
/// overflow links. Idempotent; call it again after changing a rental's rate.
/// Throws EngineError when an overflow option is missing or not a rent_hourly option, or
/// when a capacity must be computed and the model or a device is outside its domain.
void prepare_plan_inputs(PlanInputs& inputs);

/// Computes the plan: fit, speed, cash flows and metrics of every option.
/// Throws EngineError on inputs outside their domain (negative prices, zero horizon...).
Plan make_plan(const PlanInputs& inputs);

}  // namespace gputco
