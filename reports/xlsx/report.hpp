// The TCO workbook: scenario in, audited Excel workbook out.
#pragma once

#include <string>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "reports/atomic_file.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// Sheet names of the workbook, in tab order.
inline constexpr const char* kCoverSheet = "Cover";
inline constexpr const char* kSummarySheet = "Summary";
inline constexpr const char* kInputsSheet = "Inputs";
inline constexpr const char* kTimelineSheet = "Timeline";
inline constexpr const char* kCashFlowSheet = "Cash flow";
/// The figures of the Summary as formulas over the Cash flow (full workbook only).
inline constexpr const char* kMetricsSheet = "Metrics";
/// The P&L per plan year beside the cash view, and the tax schedule (full workbook only).
inline constexpr const char* kProfitAndLossSheet = "Profit and loss";
inline constexpr const char* kSensitivitySheet = "Sensitivity";
inline constexpr const char* kCrossoverSheet = "Crossover";
inline constexpr const char* kHardwareSheet = "Hardware";
inline constexpr const char* kSourcesSheet = "Sources";
inline constexpr const char* kChecksSheet = "Checks";
/// The quote's sheet of every price, rate and term the figures rest on.
inline constexpr const char* kAssumptionsSheet = "Assumptions";
/// The quote's hidden sheet of the numbers its charts plot (a chart must point at cells).
inline constexpr const char* kChartDataSheet = "Chart data";

/// What goes into the workbook besides the plan.
struct WorkbookOptions {
  /// The engine's sensitivity run (engine/plan/sensitivity.hpp). Without it the workbook has no
  /// Sensitivity and Crossover sheets: the workbook shows engine results, it never makes them.
  const Sensitivity* sensitivity = nullptr;
  /// true: the customer-facing subset (Cover, Summary, Assumptions, Sources) that sales
  /// attaches to a quote. Its figures are the full workbook's cached results written as plain
  /// numbers, so no formula points at a sheet the quote leaves out; the numbers its charts plot sit
  /// on a hidden "Chart data" sheet.
  bool quote = false;
};

/// Writes the TCO workbook of `plan` to `path` (.xlsx), atomically: a temporary file in the
/// same directory is renamed over `path` only once complete; on failure `path` is untouched.
///
/// Sheets (the full workbook): Cover (customer, quote, dates, VAT basis, the master check,
/// disclaimer), Summary (recommendation, one row per option, annual cost by component,
/// cumulative-cost and annual-cost charts), Inputs (every scenario.inputs row, with
/// workbook names such as `tariff_per_kwh` or `opt_<id>_price_per_gpu`, each validated),
/// Timeline (month, period end date, year, flags, discount factor), Cash flow (months
/// 0..horizon; live formulas over the named inputs), Sensitivity and Crossover (only with
/// options.sensitivity: tornado, Monte Carlo percentiles, cost against hours per day),
/// Hardware (fit and speed per option), Sources (scenario.sources with age and stale flag)
/// and Checks (TRUE/FALSE formulas; their AND is the master check on the Cover).
/// Every derived figure is a live formula stored with the engine's value from `plan` as its
/// cached result; figures the spreadsheet cannot reproduce (fit, speed, the sensitivity
/// runs) are plain numbers. The workbook formats `plan`; it never recomputes a figure.
/// options.quote writes the customer-facing subset instead (see WorkbookOptions).
/// Same inputs give the same bytes: the document's creation date is scenario.as_of, not
/// the clock.
///
/// Preconditions: every CashFlow vector of `plan` has plan.horizon_months + 1 entries;
/// scenario.as_of is YYYY-MM-DD. Throws ReportError (path and reason) when a precondition
/// fails or the file cannot be written.
void write_workbook(const Plan& plan, const ResolvedScenario& scenario, const std::string& path,
                    const WorkbookOptions& options = {});

/// The workbook of write_workbook, staged (reports/atomic_file.hpp): complete in its temporary
/// file, `path` untouched until commit(). The same checks and errors.
StagedFile stage_workbook(const Plan& plan, const ResolvedScenario& scenario,
                          const std::string& path, const WorkbookOptions& options = {});

}  // namespace gputco
