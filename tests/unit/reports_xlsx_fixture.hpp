// Shared by the xlsx report tests: a hand-built plan, and ways to look inside a workbook
// (its zip members, its formula cells) and to recalculate it with LibreOffice.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "scenarios/resolved.hpp"

namespace gputco::test {

/// A plan and the scenario it came from, built by hand.
struct SamplePlan {
  Plan plan;
  ResolvedScenario scenario;
};

/// Three options over 24 months (buy two used RTX 3090, rent one H100 by the hour, rent a
/// server by the month). Cash flows, totals, NPVs and annual costs computed in the test by
/// the math stated in engine/plan/plan.hpp; scenario.inputs lists every input with provenance.
SamplePlan sample_plan();

/// The same scenario with full model and device data, planned by the engine's make_plan:
/// the workbook's formulas must reproduce the real engine, not only the test's arithmetic.
SamplePlan engine_sample_plan();

/// engine_sample_plan with issue #8's figures, planned by make_plan: a pay-per-token API
/// option (api-llama: 0.50 / 0.80 EUR per million input / output tokens, limits 100000
/// tokens and 30 requests per minute), a demand of 200000 output tokens a day with 3 input
/// tokens per output token and 500 requests, API prices -20 % a year, a site grid of 350 g
/// CO2e/kWh, the rig staying on (idle 100 W), the monthly server at 380 g/kWh and the
/// hourly rental's region unknown.
SamplePlan api_carbon_sample_plan();

/// A hand-made sensitivity run of `sample` (fixed numbers, independent of the engine's analyse()):
/// the tornado compares options 0 (owned) and 1 (rented) with the plan's own base
/// difference, a Monte Carlo of every option and a sweep 0..24 h/day in steps of 2.
Sensitivity sample_sensitivity(const SamplePlan& sample);

/// Every bundled example (scenarios/examples), resolved against the built-in catalog and
/// planned by make_plan: file name -> plan and scenario.
std::vector<std::pair<std::string, SamplePlan>> example_plans();

/// Cash flows of one option, by the stated math (plan.hpp, option_cash_flow).
CashFlow hand_cash_flow(const OptionInputs& option, const WorkloadInputs& workload,
                        const SiteInputs& site, const FinanceInputs& finance);

/// Fills the plan's results (cash flows, totals, NPV, annual costs) from its inputs again,
/// after a test changed an input.
void recompute_money(SamplePlan& sample);

/// A fresh, empty directory under the build tree's test scratch area.
std::string fresh_dir(const std::string& name);

/// The whole content of a file ("" if it cannot be read).
std::string read_bytes(const std::string& path);

/// Names of the members of a zip file, in archive order (via `unzip -Z1`).
std::vector<std::string> zip_members(const std::string& zip);

/// One member of a zip file (via `unzip -p`).
std::string zip_member(const std::string& zip, const std::string& member);

/// Sheet name -> its part ("xl/worksheets/sheet3.xml"), from workbook.xml and its rels.
std::map<std::string, std::string> sheet_parts(const std::string& xlsx);

/// The shared-string text cells of one sheet: cell reference ("D17") -> text, XML entities
/// decoded.
std::map<std::string, std::string> text_cells(const std::string& xlsx, const std::string& sheet);

/// The numbers of one sheet that are no formula, as stored: cell reference ("D12") -> value.
std::map<std::string, double> plain_numbers(const std::string& xlsx, const std::string& sheet);

/// A formula cell as stored in the file.
struct FormulaCell {
  std::string sheet;
  std::string ref;  ///< "C5"
  int row = 0;      ///< zero-based
  int col = 0;      ///< zero-based
  std::string formula;
  double cached = 0;         ///< numeric results (checks: 1 TRUE, 0 FALSE)
  bool text_result = false;  ///< the result is text (t="str"), in cached_text
  std::string cached_text;
};

/// Writes a copy of `xlsx` at `copy` in which the cell the defined name `name` points at
/// holds `value` (its sheet XML edited, the archive rezipped with `zip`). Throws
/// std::runtime_error when the name, its cell or the zip tools are missing.
void copy_with_input(const std::string& xlsx, const std::string& name, double value,
                     const std::string& copy);

/// True if the `zip` and `unzip` programs can be run.
bool zip_available();

/// Every formula cell of every sheet, with its cached result.
std::vector<FormulaCell> formula_cells(const std::string& xlsx);

/// Zero-based (row, col) of an A1 reference such as "AB12" ("$" allowed).
std::pair<int, int> parse_ref(const std::string& ref);

/// Rows of fields; quoted fields may hold commas, quotes ("") and newlines.
using CsvTable = std::vector<std::vector<std::string>>;
CsvTable parse_csv(const std::string& text);

/// In a recalculated sheet, the field of the row whose first field is `row_key`, in the column
/// headed `header`: the table's header is the first row that starts with "Option" and holds
/// `header`, and the row is looked for below it, up to the table's end (an empty first
/// field). "" when there is none.
std::string table_cell(const CsvTable& sheet, const std::string& header,
                       const std::string& row_key);

/// The field after `key` in the first row that starts with it ("Recommendation"); "" if none.
std::string key_value(const CsvTable& sheet, const std::string& key);

/// A recalculated number: "12.5%" is 0.125 (LibreOffice writes percentages with every digit
/// and the sign); NaN when the field is not a number.
double csv_number(const std::string& field);

/// True if LibreOffice's soffice can be run.
bool soffice_available();

/// Opens each workbook in a headless LibreOffice with a fresh profile set to always
/// recalculate on load, and saves every sheet as CSV of raw values. Returns, per workbook
/// path, sheet name -> table. Throws std::runtime_error if soffice fails.
std::map<std::string, std::map<std::string, CsvTable>> recalculate_with_libreoffice(
    const std::vector<std::string>& workbooks, const std::string& work_dir);

/// The first half of recalculate_with_libreoffice: one headless LibreOffice run (a fresh
/// profile under `work_dir`, its own, so that two runs may go side by side) that recalculates
/// every workbook and writes its sheets as CSV into the folder it returns ("<stem>-<Sheet>.csv";
/// the workbooks' file names must differ). Throws std::runtime_error if soffice fails.
std::string convert_with_libreoffice(const std::vector<std::string>& workbooks,
                                     const std::string& work_dir);

/// The recalculated sheets of one workbook in that folder: sheet name -> table.
std::map<std::string, CsvTable> read_recalculated(const std::string& csv_dir,
                                                  const std::string& workbook);

}  // namespace gputco::test
