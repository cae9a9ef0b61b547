// The TCO workbook: scenario in, audited Excel workbook out.
#pragma once

#include <string>

#include "engine/plan.hpp"
#include "reports/atomic_file.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// Sheet names of the workbook, in tab order.
inline constexpr const char* kSummarySheet = "Summary";
inline constexpr const char* kInputsSheet = "Inputs";
inline constexpr const char* kCashFlowSheet = "Cash flow";
inline constexpr const char* kHardwareSheet = "Hardware";
inline constexpr const char* kSourcesSheet = "Sources";

/// Writes the TCO workbook of `plan` to `path` (.xlsx), atomically: a temporary file in the
/// same directory is renamed over `path` only once complete; on failure `path` is untouched.
///
/// Sheets: Summary (scenario, recommendation, one row per option, cumulative-cost chart),
/// Inputs (every scenario.inputs row, with workbook names such as `tariff_per_kwh` or
/// `opt_<id>_price_per_gpu`), Cash flow (months 0..horizon; live formulas over the named
/// inputs, each stored with the engine's value from `plan` as its cached result), Hardware
/// (fit and speed per option) and Sources (scenario.sources with age and stale flag).
/// The workbook formats `plan`; it never recomputes a figure. Same inputs give the same
/// bytes: the document's creation date is scenario.as_of, not the clock.
///
/// Preconditions: every CashFlow vector of `plan` has plan.horizon_months + 1 entries;
/// scenario.as_of is YYYY-MM-DD. Throws ReportError (path and reason) when a precondition
/// fails or the file cannot be written.
void write_workbook(const Plan& plan, const ResolvedScenario& scenario, const std::string& path);

}  // namespace gputco
