// The terminal summary: readable tables, no computation.
#pragma once

#include <string>
#include <vector>

#include "engine/plan/plan.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// The plan summary: one line on the scenario, a table with one row per option (kind,
/// devices, fit verdict, decode tokens/s, total cost, NPV, break-even hours and month, cost
/// per million tokens), the recommendation, and stale prices. "never" / "n/a" where a
/// figure does not exist.
std::string plan_summary_text(const Plan& plan, const ResolvedScenario& scenario);

/// What users get from option `r` at the plan's load (r.serving_load set): "peak hour 56
/// replica(s) of 27.3 sequences in flight, 31.2 tokens/s per user, TPOT p99 45.0 ms, TTFT p99
/// 420 ms; mean hour ..." (engine/fleet/fleet_load.hpp). Shared by the terminal summary and the
/// workbook's Hardware sheet. Throws nothing but std::bad_alloc.
std::string serving_load_text(const OptionResult& r);

/// The cost lines no option entered, grouped by the options that left them out:
/// "staff and operations, software licences (every option); insurance (rig)"; "" when every
/// option entered every line that applies to it. Shared by the terminal summary and the
/// workbook's Summary.
std::string cost_lines_not_entered_text(const Plan& plan);

/// An amount of money in the terminal tables: whole units, no separators (the column says
/// the currency), "n/a" for a figure that does not exist (NaN or infinite). Never throws.
std::string whole_money_text(double amount);

/// An amount of money for people to read: whole units with thousands separators, no locale
/// ("6,069", "-1,020", "1,000,000"), "n/a" for a figure that does not exist (NaN or
/// infinite). Used by the fit report's prices and gputco diff. Never throws.
std::string grouped_money_text(double amount);

}  // namespace gputco
