// The plan's comparisons once every option is priced (make_plan's last steps): owned options
// against the rental baseline (break-even, payback, IRR), every option against the cheapest
// API (break-even volume), and the recommendation.
#pragma once

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Sets plan.baseline_option_id (inputs.baseline_option_id when named, else the feasible,
/// allowed on-demand rent_hourly option with the lowest rate x count per hour) and every
/// feasible owned option's break-even month and hours, payback, IRR and their reasons
/// against it. `days_of_use_total` = the days of use over the horizon (break-even hours =
/// hours a day x these). Throws EngineError when the named baseline is not a feasible
/// rent_hourly option of the plan.
void compare_with_baseline(const PlanInputs& inputs, double days_of_use_total, Plan& plan);

/// Sets plan.api_reference_option_id (the candidate api option with the lowest total cost)
/// and the other feasible options' break_even_tokens_per_day against it. Throws what
/// break_even_tokens_per_day throws.
void compare_with_api(const PlanInputs& inputs, Plan& plan);

/// Sets plan.recommendation (the candidate option with the lowest NPV of cost; ties keep
/// file order) and recommendation_reason, which says why nothing is recommended when no
/// option holds the model or can serve the demand (issue #43: every option listed with its
/// reason) and which options constraints exclude. Throws nothing but std::bad_alloc.
void recommend(const PlanInputs& inputs, Plan& plan);

}  // namespace gputco
