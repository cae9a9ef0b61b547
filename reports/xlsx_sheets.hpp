// Internal to the xlsx report: the sheet writers and what they share (formats, the names of
// the Inputs cells, where the Cash flow rows are). Not part of the public API.
#pragma once

#include <xlsxwriter.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan.hpp"
#include "reports/xlsx_cells.hpp"
#include "scenarios/resolved.hpp"

namespace gputco::xlsx {

/// The cell formats of one workbook (owned by the workbook).
struct Formats {
  lxw_format* title = nullptr;
  lxw_format* subtitle = nullptr;
  lxw_format* note = nullptr;
  lxw_format* header = nullptr;
  lxw_format* header_number = nullptr;    ///< header of a numeric column (right-aligned)
  lxw_format* header_indented = nullptr;  ///< header of a column right after a numeric one
  lxw_format* month_header = nullptr;
  lxw_format* year_header = nullptr;
  lxw_format* label = nullptr;
  lxw_format* text = nullptr;
  lxw_format* bold = nullptr;
  lxw_format* highlight = nullptr;  ///< the recommended option
  lxw_format* warning = nullptr;    ///< stale prices, options that do not fit
  lxw_format* money = nullptr;      ///< plan currency, cents
  lxw_format* money_whole = nullptr;
  lxw_format* money_bold = nullptr;
  lxw_format* money_quiet = nullptr;  ///< rows that do not apply to an option (engine zeros)
  lxw_format* amount = nullptr;       ///< money in a currency named in another column
  lxw_format* decimal1 = nullptr;
  lxw_format* decimal2 = nullptr;
  lxw_format* integer = nullptr;
  lxw_format* hours = nullptr;
  lxw_format* months = nullptr;
  lxw_format* factor = nullptr;
  lxw_format* flag = nullptr;
  lxw_format* flag_label = nullptr;
  lxw_format* date = nullptr;
  lxw_format* input_number = nullptr;
  lxw_format* input_text = nullptr;
  lxw_format* constant_number = nullptr;
  lxw_format* not_available = nullptr;  ///< "n/a", "never" in a numeric column
  lxw_format* indented = nullptr;       ///< text right after a numeric column
};

/// Creates the formats; money formats carry `currency` when it is a plain code ("EUR").
Formats make_formats(lxw_workbook* workbook, const std::string& currency);

/// Display labels (reports own their wording; the engine's to_string are ids).
std::string kind_label(OptionKind kind, const OptionInputs* option);
std::string verdict_label(Verdict verdict);
std::string kv_cache_label(KvCacheType type);

/// The scenario's inputs for option `id`, or nullptr if the scenario has no such option.
const OptionInputs* find_option_inputs(const ResolvedScenario& scenario, const std::string& id);

/// "2 x GeForce RTX 3090" (the option's devices), or "n/a" when unknown.
std::string devices_label(const OptionInputs* option);

/// A strict YYYY-MM-DD date (a real calendar day, year 1900..9999), or nullopt.
std::optional<lxw_datetime> parse_iso_date(const std::string& text);

/// Applies the shared print setup: landscape, one page wide, page numbers in the footer.
void set_print_layout(SheetWriter& sheet);

/// Workbook names of the Inputs cells, by (section, key).
class InputNames {
 public:
  void add(const std::string& section, const std::string& key, const std::string& name);
  /// The name of an input; throws XlsxError if the Inputs sheet has no such cell.
  const std::string& at(const std::string& section, const std::string& key) const;
  bool has(const std::string& section, const std::string& key) const;

 private:
  std::map<std::pair<std::string, std::string>, std::string> names_;
};

/// Section of the named constants on the Inputs sheet (months per year, watts per kW).
inline constexpr const char* kConstantsSection = "constants";

/// Writes the Inputs sheet and defines a workbook name for every numeric input. Inputs the
/// Cash flow formulas need but scenario.inputs lacks are added with the value the engine
/// used (from scenario.plan_inputs) and say so in their provenance.
InputNames write_inputs_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario);

/// Where one option's rows are on the Cash flow sheet.
struct OptionBlock {
  lxw_row_t title = 0;
  lxw_row_t capex = 0;
  lxw_row_t energy = 0;
  lxw_row_t maintenance = 0;
  lxw_row_t rent = 0;
  lxw_row_t resale = 0;
  lxw_row_t total = 0;
  lxw_row_t cumulative = 0;
  lxw_row_t discounted = 0;
};

/// Where the Cash flow sheet puts things. Month m is in column first_month_col + m.
struct CashFlowLayout {
  lxw_row_t month_row = 0;
  lxw_row_t is_start_row = 0;
  lxw_row_t is_running_row = 0;
  lxw_row_t is_end_row = 0;
  lxw_row_t year_row = 0;
  lxw_row_t discount_row = 0;
  lxw_col_t label_col = 0;
  lxw_col_t sum_col = 1;  ///< total cost (total row) and NPV (discounted row)
  lxw_col_t first_month_col = 2;
  lxw_col_t last_month_col = 2;
  std::vector<OptionBlock> blocks;  ///< one per plan option, in plan order
};

/// Writes the Cash flow sheet: the shared timeline and one block of formula rows per option.
CashFlowLayout write_cash_flow_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                     const Formats& formats, const Plan& plan,
                                     const ResolvedScenario& scenario, const InputNames& names);

/// Writes the Summary sheet, whose totals, NPVs and annual costs are formulas over the
/// Cash flow sheet, and the cumulative-cost chart.
void write_summary_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                         const Plan& plan, const ResolvedScenario& scenario,
                         const CashFlowLayout& layout);

/// Writes the Hardware sheet (fit and speed per option; engine figures as numbers).
void write_hardware_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                          const ResolvedScenario& scenario);

/// Writes the Sources sheet (every catalog price used, with age and stale flag).
void write_sources_sheet(SheetWriter& sheet, const Formats& formats,
                         const ResolvedScenario& scenario);

}  // namespace gputco::xlsx
