// The terminal summary: readable tables, no computation.
#pragma once

#include <string>
#include <vector>

#include "engine/finder.hpp"
#include "engine/plan.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// The plan summary: one line on the scenario, a table with one row per option (kind,
/// devices, fit verdict, decode tokens/s, total cost, NPV, break-even hours and month, cost
/// per million tokens), the recommendation, and stale prices. "never" / "n/a" where a
/// figure does not exist.
std::string plan_summary_text(const Plan& plan, const ResolvedScenario& scenario);

/// The fit table: memory breakdown, then one row per device (count, usable GiB, verdict,
/// headroom, decode and aggregate tokens/s).
std::string fit_text(const FitRequest& request, const MemoryBreakdown& memory,
                     const std::vector<DeviceFit>& rows);

}  // namespace gputco
