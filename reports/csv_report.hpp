// CSV for pipelines: one row per option with the key figures.
#pragma once

#include <string>

#include "engine/plan/plan.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// The plan as CSV (RFC 4180): a header line, then one line per option in plan order; lines
/// end in CRLF; a field holding a comma, a double quote, CR or LF is quoted, its quotes
/// doubled. Columns: option, kind (engine id: buy | rent_hourly | rent_monthly), gpu, count,
/// fit (fits | tight | does_not_fit), feasible (true | false), decode_tokens_per_s,
/// aggregate_tokens_per_s, currency, total_cost, npv, year_1 .. year_N (N = the longest
/// annual_costs), break_even_hours, break_even_month, cost_per_million_tokens,
/// break_even_tokens_per_day, energy_kwh, co2e_kg, co2e_kg_per_million_tokens,
/// grid_g_co2e_per_kwh, recommended (true | false), note. Amounts are in the plan currency,
/// numbers in the shortest form that reads back to the same double ('.' decimal point,
/// whatever the locale). The three break-even columns hold a number or the terminal's word:
/// "always" (break_even_hours: owning no dearer at any use), "never" (no break-even within
/// the horizon; the note says when owning led for a while) or "n/a" (not compared: not an
/// owned option, no baseline or API, does not fit; break_even_month also when owning is
/// never dearer). Other absent values (unknown energy or CO2e, does not fit) are empty
/// fields. Text cells (ids, names, the note)
/// starting with '=', '+', '-', '@', a tab or a CR get a leading apostrophe
/// (csv_text_field: a spreadsheet never runs them as formulas); numbers are never prefixed.
std::string plan_csv(const Plan& plan, const ResolvedScenario& scenario);

}  // namespace gputco
