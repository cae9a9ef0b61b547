// Internal to the xlsx report: the sheet writers and what they share (formats, the names of
// the Inputs cells, where the Cash flow rows are). Not part of the public API.
#pragma once

#include <xlsxwriter.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "reports/xlsx/cells.hpp"
#include "scenarios/resolved.hpp"

namespace gputco::xlsx {

/// The cell formats of one workbook (owned by the workbook).
struct Formats {
  lxw_format* title = nullptr;
  lxw_format* subtitle = nullptr;
  lxw_format* note = nullptr;
  lxw_format* note_wrapped = nullptr;  ///< a sheet's introduction, wrapped across its columns
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
  lxw_format* identifier = nullptr;  ///< a number that names something (a seed): no separators
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
  lxw_format* percent = nullptr;        ///< a fraction shown as a percentage
  lxw_format* percent2 = nullptr;      ///< a percentage with two decimals (a rate as typed: 3.05 %)
  lxw_format* days = nullptr;          ///< a count of days
  lxw_format* check = nullptr;         ///< a check's TRUE/FALSE
  lxw_format* check_text = nullptr;    ///< "n/a" in the result column of a check
  lxw_format* input_date = nullptr;    ///< a date typed by someone (input style)
  lxw_format* period_date = nullptr;   ///< a timeline date, in a month column
  lxw_format* wrapped = nullptr;       ///< long text that wraps in its cell
  lxw_format* fail = nullptr;          ///< conditional format: a FALSE check
  lxw_format* pass = nullptr;          ///< conditional format: a TRUE check
  lxw_format* integer_left = nullptr;  ///< a count next to its label (Cover)
  lxw_format* money_whole_left = nullptr;   ///< an amount next to its label (Cover)
  lxw_format* fixed_number = nullptr;       ///< a value the formulas do not read (white)
  lxw_format* fixed_text = nullptr;         ///< text the formulas do not read (white)
  lxw_format* derived_number = nullptr;     ///< a figure that follows by formula (grey italic)
  lxw_format* value_text = nullptr;         ///< text in a column of values (right-aligned)
  lxw_format* label_top = nullptr;          ///< a label beside wrapped text (top-aligned)
  lxw_format* name_wrapped = nullptr;       ///< an option's name in a table (bold, wrapped)
  lxw_format* highlight_wrapped = nullptr;  ///< the recommended option's name in a table
};

/// Creates the formats; money formats carry `currency` when it is a plain code ("EUR").
Formats make_formats(lxw_workbook* workbook, const std::string& currency);

/// Display labels (reports own their wording; the engine's to_string are ids).
/// kind_label: the kind with the variant a finance reader tells options apart by, e.g.
/// "buy (used)", "buy (new, loan)", "lease (new)", "rent hourly (spot)", "rent hourly (reserved
/// 3 years)"; the bare kind when `option` is null.
std::string kind_label(OptionKind kind, const OptionInputs* option);
std::string verdict_label(Verdict verdict);

/// The scenario's inputs for option `id`, or nullptr if the scenario has no such option.
const OptionInputs* find_option_inputs(const ResolvedScenario& scenario, const std::string& id);

/// "2 x GeForce RTX 3090" (the option's devices), a catalog system's name first ("8x H100
/// server with InfiniBand (quoted node): 8 x H100 SXM5 80GB"), or "n/a" when unknown.
std::string devices_label(const OptionInputs* option);

/// A strict YYYY-MM-DD date (a real calendar day, year 1900..9999), or nullopt.
std::optional<lxw_datetime> parse_iso_date(const std::string& text);

/// Days since 1970-01-01 of a proleptic Gregorian calendar day (H. Hinnant's days_from_civil,
/// http://howardhinnant.github.io/date_algorithms.html; no time zone). Never throws.
long long days_since_1970(int year, int month, int day);

/// The spreadsheet date serial of a calendar day: days since 1899-12-30 (1970-01-01 = 25569).
double date_serial(int year, int month, int day);

/// Applies the shared print setup: landscape, one page wide, page numbers in the footer.
void set_print_layout(SheetWriter& sheet);

/// Writes `text` in `format` (one that wraps) merged across columns first..last of `row`, the
/// row as tall as its lines: `chars_per_line` characters a line (about the merged columns'
/// width in characters, Calibri 11), 15 points a line. A long sentence in one unwrapped cell
/// runs past the sheet's columns, and a sheet fitted one page wide then prints that whole
/// line on the page's width (M6). Throws XlsxError when a libxlsxwriter call fails.
void write_wrapped_across(SheetWriter& sheet, lxw_row_t row, lxw_col_t first, lxw_col_t last,
                          double chars_per_line, const std::string& text, lxw_format* format);

/// The page setup of a workbook that goes with a quote: paper, header and footer.
struct PrintSetup {
  std::uint8_t paper = 9;  ///< libxlsxwriter paper code: 9 = A4, 1 = Letter
  std::string header;      ///< customer and quote id (header/footer codes escaped)
  std::string footer;      ///< page x of y and the prices-as-of date
};

/// The print setup for `scenario`: paper from its `paper` key (a4 | letter; default a4), header
/// "customer  |  Quote id", footer "Prices as of DATE", "Page &P of &N" and the sheet name. User
/// text in them has its '&' doubled (a code character there).
PrintSetup print_setup(const ResolvedScenario& scenario);

/// Text for a page header or footer: '&' (a code character there) doubled, line breaks made
/// spaces, and cut to at most `max_chars` characters (UTF-8 code points, the doubled '&'
/// counting two) between two characters, never inside a UTF-8 sequence or a doubled '&'; a
/// cut text ends in "…" (issue #20).
std::string header_footer_text(const std::string& text, size_t max_chars);

/// Applies `setup` to a sheet: paper, orientation, one page wide, margins, header, footer.
void apply_print_setup(SheetWriter& sheet, const PrintSetup& setup, bool landscape);

/// Days the quote is valid after the prices-as-of date: the scenario's `valid_days`
/// (default 30).
int quote_valid_days(const ResolvedScenario& scenario);

/// "excl. VAT (reclaimed)" or "incl. 19 % VAT (not reclaimable)": the VAT basis of the plan.
std::string vat_basis_label(const FinanceInputs& finance);

/// Writes a derived figure: the live formula with `cached` (the engine's value) as its
/// stored result when `live`, else `cached` as a plain number (the quote, whose formulas
/// must not reach sheets it leaves out).
void write_figure(SheetWriter& sheet, bool live, lxw_row_t row, lxw_col_t col,
                  const std::string& formula, double cached, lxw_format* format);

/// Writes a check: a formula giving TRUE or FALSE, stored with `cached` as 1 or 0
/// (libxlsxwriter 1.1.4 stores formula results as numbers; the check format shows them as
/// TRUE/FALSE until the file is recalculated). Not live: a plain boolean.
void write_check(SheetWriter& sheet, bool live, lxw_row_t row, lxw_col_t col,
                 const std::string& formula, bool cached, lxw_format* format);

/// Workbook names of the Inputs cells, by (section, key), with where each cell is and the value
/// it holds; records which names a formula asked for (the inputs that drive the workbook).
class InputNames {
 public:
  /// Every (section, key) that has a name, in order.
  std::vector<std::pair<std::string, std::string>> keys() const;
  /// Adds a name for the Inputs cell on `row` holding `value`; `derived`: the cell is a
  /// formula of other inputs (not itself an input).
  void add(const std::string& section, const std::string& key, const std::string& name,
           lxw_row_t row = 0, double value = 0, bool derived = false, bool blank = false);
  /// The name of an input, for a formula: marks it used. Throws XlsxError if the Inputs sheet
  /// has no such cell.
  const std::string& at(const std::string& section, const std::string& key) const;
  bool has(const std::string& section, const std::string& key) const;
  /// Whether a formula asked for this name (at()).
  bool used(const std::string& section, const std::string& key) const;
  /// The name, the row and the value of a named cell (no use recorded); throw as at().
  const std::string& name_of(const std::string& section, const std::string& key) const;
  lxw_row_t row_of(const std::string& section, const std::string& key) const;
  double value_of(const std::string& section, const std::string& key) const;
  bool derived(const std::string& section, const std::string& key) const;
  /// An empty input cell (a cost line not entered): read as 0 by the formulas.
  bool blank(const std::string& section, const std::string& key) const;
  /// The Inputs cell of the value gputco wrote for this input, in the "As gputco wrote it"
  /// column (an absolute reference such as Inputs!$I$12); no use recorded. Compared with the
  /// name's cell, it says whether a reader changed the input (the Checks' stale statuses).
  std::string written_ref(const std::string& section, const std::string& key) const;

 private:
  struct Cell {
    std::string name;
    lxw_row_t row = 0;
    double value = 0;
    bool derived = false;
    bool blank = false;
  };
  const Cell& cell(const std::string& section, const std::string& key) const;
  std::map<std::pair<std::string, std::string>, Cell> names_;
  mutable std::set<std::pair<std::string, std::string>> used_;
};

/// The values a named input accepts (its data validation, add_input_validation): minimum and
/// maximum (infinity: none), whole numbers only, empty allowed (a cost line not entered).
struct InputDomain {
  double minimum = 0;
  double maximum = 0;
  bool whole = false;
  bool blank_allowed = false;
};

/// The domain of the input `key` (an Inputs key such as "hours_per_day"), the horizon capped at
/// `horizon_months` (the sheets' timeline); any number for a key without a rule.
InputDomain input_domain(const std::string& key, int horizon_months);

/// Adds data validation to every named numeric cell of the Inputs sheet: the rule follows
/// the input's key (a fraction between 0 and 1, a non-negative price, hours 0..24, PUE 1..3,
/// whole counts, the horizon no longer than the sheets' timeline); constants get none.
/// Reads each name's cell from the workbook's defined names. Throws XlsxError when a name's cell
/// cannot be found.
void add_input_validation(lxw_workbook* workbook, SheetWriter& inputs, const InputNames& names,
                          int horizon_months);

/// Columns of the Inputs sheet: an input's value (its workbook name's cell), and the value gputco
/// wrote there (a constant beside it: an edited input differs from it).
inline constexpr lxw_col_t kInputsValueCol = 3;
inline constexpr lxw_col_t kInputsWrittenCol = 8;
/// Workbook names of the Inputs sheet's value column and of its "As gputco wrote it" column,
/// over the same rows: SUMPRODUCT(ISNUMBER(inputs_as_written)*(inputs_now<>inputs_as_written))
/// counts the inputs a reader changed.
inline constexpr const char* kInputsNowName = "inputs_now";
inline constexpr const char* kInputsWrittenName = "inputs_as_written";
/// The formula text counting the inputs changed since gputco wrote the workbook.
std::string changed_inputs_count();

/// Section of the named constants on the Inputs sheet (months per year, watts per kW).
inline constexpr const char* kConstantsSection = "constants";

/// Minutes per hour (the rate-limit check's peak tokens per minute), a named constant.
inline constexpr double kMinutesPerHour = 60.0;

/// The Inputs key of the site's carbon intensity: "green_power_g_co2e_per_kwh" when the
/// scenario lists a green-power contract's intensity, else "grid_g_co2e_per_kwh".
std::string site_intensity_key(const ResolvedScenario& scenario);

/// Writes the Inputs sheet and defines a workbook name for every numeric input. Inputs the
/// Cash flow formulas need but scenario.inputs lacks are added with the value the engine
/// used (from scenario.plan_inputs) and say so in their provenance; the engine's estimates of
/// speed (decode and prefill tokens/s) are inputs, and what follows from other rows (the
/// capacity, tokens per day from requests, the token mix) a formula with the engine's value
/// cached. Every value starts in the fixed (white) style: finish_inputs_sheet makes the
/// ones a formula reads yellow.
InputNames write_inputs_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario);

/// After every formula is written: the Inputs cells that a formula reads (InputNames::used)
/// get the input style (yellow) and "yes" in the Recalculates column; the others stay white
/// ("no: rerun gputco"), so that a yellow cell always drives something.
void finish_inputs_sheet(SheetWriter& sheet, const Formats& formats, const InputNames& names);

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
  lxw_row_t load = 0;           ///< demand in units of the option (not money)
  lxw_row_t units = 0;          ///< units in service (not money)
  lxw_row_t overflow_load = 0;  ///< load rented from the overflow option (not money)
  lxw_row_t hosting = 0;
  lxw_row_t failures = 0;
  lxw_row_t financing = 0;
  lxw_row_t vat = 0;
  // The cost lines (engine/finance/cost_lines.hpp), inside the total's SUM.
  lxw_row_t colo_extras = 0;
  lxw_row_t licences = 0;
  lxw_row_t support = 0;
  lxw_row_t staff = 0;
  lxw_row_t insurance = 0;
  lxw_row_t depreciation = 0;  ///< accounting view, not in the total
  lxw_row_t book_value = 0;    ///< accounting view
  lxw_row_t interest = 0;      ///< loan interest (accounting view: part of financing)
  // Physical rows (issue #8): not money, below the accounting view, outside the total's SUM.
  lxw_row_t energy_kwh = 0;  ///< kWh at the wall (load + idle, x PUE); sum in sum_col
  lxw_row_t idle_kwh = 0;    ///< of which idle (powered, not serving); sum in sum_col
  lxw_row_t co2e_kg = 0;     ///< kg CO2e = kWh x g CO2e/kWh / grams per kg; sum in sum_col
  /// A blend's overflow rental (issue #21 H1): two rows of its part of energy_kwh and co2e_kg,
  /// only in the blocks of owned options with overflow = rent (has_overflow_energy).
  bool has_overflow_energy = false;
  lxw_row_t overflow_kwh = 0;      ///< of energy_kwh, the overflow rental's; sum in sum_col
  lxw_row_t overflow_co2e_kg = 0;  ///< of co2e_kg, the overflow rental's; sum in sum_col
  lxw_row_t tokens = 0;            ///< output tokens served (not money); sum in sum_col
  lxw_row_t hours_scaled = 0;  ///< of the total, what scales with the hours of use; sum in sum_col
  /// The after-tax view (issue #40), only with a tax rate (has_tax), at the block's foot:
  /// the tax of each plan year in its last month (from the Profit and loss sheet), the total
  /// after tax (sum: after-tax total cost) and discounted (sum: after-tax NPV).
  bool has_tax = false;
  lxw_row_t tax = 0;
  lxw_row_t after_tax_total = 0;
  lxw_row_t after_tax_discounted = 0;
  bool energy_known = false;  ///< energy_kwh's sum cell holds a number (else "unknown")
  bool co2e_known = false;    ///< co2e_kg's sum cell holds a number (else "unknown")
};

/// Where the Cash flow sheet puts things. Month m is in column first_month_col + m.
struct CashFlowLayout {
  lxw_row_t month_row = 0;
  lxw_row_t is_start_row = 0;
  lxw_row_t is_running_row = 0;
  lxw_row_t is_end_row = 0;
  lxw_row_t year_row = 0;
  lxw_row_t discount_row = 0;
  lxw_row_t hours_in_month_row = 0;  ///< 24-hour billing hours of each month
  lxw_row_t days_of_use_row = 0;
  lxw_row_t hours_of_use_row = 0;
  lxw_row_t growth_row = 0;         ///< demand factor (1 + growth)^(month - 1)
  lxw_row_t rent_factor_row = 0;    ///< hourly rental price trend factor
  lxw_row_t tariff_factor_row = 0;  ///< electricity price trend factor
  /// Per-token API price trend factor; 0 when the plan has no api option (no such row).
  lxw_row_t api_factor_row = 0;
  lxw_col_t label_col = 0;
  lxw_col_t sum_col = 1;  ///< total cost (total row) and NPV (discounted row)
  lxw_col_t first_month_col = 2;
  lxw_col_t last_month_col = 2;
  std::vector<OptionBlock> blocks;  ///< one per plan option, in plan order
};

struct TimelineLayout;
struct ProfitAndLossLayout;

/// Writes the Cash flow sheet: the shared timeline and one block of formula rows per option.
/// With `timeline` (the Timeline sheet, same month columns), the month, flag, year and
/// discount-factor rows link to the Timeline's rows instead of repeating their formulas: the
/// workbook has one timeline.
CashFlowLayout write_cash_flow_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                     const Formats& formats, const Plan& plan,
                                     const ResolvedScenario& scenario, const InputNames& names,
                                     const TimelineLayout* timeline = nullptr);

/// Writes the after-tax rows of every block with has_tax on the Cash flow sheet (issue #40),
/// once the Profit and loss sheet has its tax rows (`profit_and_loss.tax_rows`): the tax of
/// plan year y in month min(12y, horizon) (INDEX of that row by the Year row), 0 in the other
/// months and past the horizon; the total + the tax; that x the discount factor. The sums are
/// the after-tax total cost and NPV (OptionResult::after_tax).
void write_cash_flow_tax_rows(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                              const InputNames& names, CashFlowLayout& layout,
                              const ProfitAndLossLayout& profit_and_loss);

/// Writes the Cash flow sheet's timeline rows at layout's rows (months 0..plan.horizon_months
/// from layout.first_month_col): the month, the flags, plan year and discount factor (links to
/// `timeline`'s rows when given, else their own formulas), hours in the month, days and hours
/// of use, growth and price trend factors, each cached with the engine's timeline value.
void write_cash_flow_timeline(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                              const CashFlowLayout& layout, const InputNames& names,
                              const TimelineLayout* timeline);

/// Where the Timeline sheet puts things; its month m sits in column first_month_col + m,
/// the same column as on the Cash flow sheet.
struct TimelineLayout {
  lxw_row_t first_month_row = 0;  ///< the named input: first month of the plan (a date)
  lxw_row_t month_row = 0;
  lxw_row_t date_row = 0;  ///< period end date
  lxw_row_t year_row = 0;  ///< plan year (month 0 belongs to year 1)
  lxw_row_t calendar_year_row = 0;
  lxw_row_t is_start_row = 0;
  lxw_row_t is_running_row = 0;
  lxw_row_t is_end_row = 0;
  lxw_row_t is_year_end_row = 0;
  lxw_row_t discount_row = 0;
  lxw_col_t first_month_col = 2;
  lxw_col_t last_month_col = 2;
};

/// Writes the Timeline sheet: month number, period end date, plan and calendar year, flags
/// and discount factor, one formula per row over the named Inputs, with the engine's values
/// (flags and years by the rules of engine/plan/plan.hpp) as cached results.
TimelineLayout write_timeline_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                    const Formats& formats, const Plan& plan,
                                    const ResolvedScenario& scenario, const InputNames& names,
                                    lxw_col_t first_month_col);

/// The cost components that add up to an option's total (engine/plan/plan.hpp CashFlow), in the
/// Cash flow sheet's row order: capex, energy, maintenance, hosting, colocation extras,
/// failures, licences, support, rent, financing, staff, insurance, VAT, resale.
inline constexpr size_t kCostComponents = 14;

/// The cells a chart of cumulative cost by month plots: on the Cash flow sheet in the full
/// workbook, on the hidden Chart data sheet in the quote.
struct CumulativeSource {
  std::string sheet;
  lxw_row_t month_row = 0;
  lxw_col_t first_col = 0;
  lxw_col_t last_col = 0;
  lxw_col_t name_col = 0;
  std::vector<lxw_row_t> name_rows;        ///< the option id's cell, per plan option
  std::vector<lxw_row_t> cumulative_rows;  ///< per plan option
  std::vector<lxw_row_t> total_rows;       ///< per plan option; its sum in sum_col
  std::vector<lxw_row_t> discounted_rows;  ///< per plan option; its sum (NPV) in sum_col
  lxw_col_t sum_col = 1;
  /// Per cost component (cost_component order), the row of each plan option.
  std::vector<lxw_row_t> component_rows[kCostComponents];
  /// Per plan option, the energy (kWh) and CO2e (kg) rows whose sums (sum_col) the Summary
  /// links to; empty on the quote's Chart data sheet (the Summary then shows values).
  std::vector<lxw_row_t> energy_kwh_rows;
  std::vector<lxw_row_t> co2e_kg_rows;
  lxw_row_t year_row = 0;  ///< plan year per month column
};

/// The label of cost component `which` (0 .. kCostComponents - 1): "Capex", ...
const char* cost_component_label(size_t which);
/// The monthly flows of cost component `which` (may be empty: a plan without that row).
const std::vector<double>& cost_component(const CashFlow& cash_flow, size_t which);
/// The Cash flow row of cost component `which` in an option's block.
lxw_row_t cost_component_row(const OptionBlock& block, size_t which);

/// Excel draws at most 255 series in one chart (issue #20).
inline constexpr size_t kMaxChartSeries = 255;
/// A line chart shows at most this many options (one line each; far below kMaxChartSeries, a
/// legend of more is unreadable): the cheapest by NPV, said in its title.
inline constexpr size_t kMaxChartOptions = 20;

/// The plan indices of the options a line chart shows, in plan order: every option when
/// there are at most `limit`, else the `limit` cheapest by NPV among those that hold the
/// model (then the others), with the options named in `keep` (the break-even baseline, the
/// proposed option) always among them.
std::vector<size_t> chart_options(const Plan& plan, size_t limit,
                                  const std::vector<std::string>& keep);

/// " (the 20 cheapest of 300 options by NPV)" when `shown` < `total`, else "".
std::string chart_subset_note(size_t shown, size_t total);

/// A CumulativeSource over the Cash flow sheet's rows.
CumulativeSource cash_flow_source(const CashFlowLayout& layout);

/// Writes the quote's hidden Chart data sheet (values only, the Cash flow layout's rows; each
/// option under its label) and returns where its rows are.
CumulativeSource write_chart_data_sheet(SheetWriter& sheet, const Formats& formats,
                                        const Plan& plan, const ResolvedScenario& scenario);

/// Where the Metrics sheet puts things: one row per option (option i on first_option_row + i)
/// with every figure the Summary shows, each a formula over the Cash flow sheet and the
/// Inputs, and below them the monthly rows of each owned option against the baseline.
struct MetricsLayout {
  lxw_row_t recommendation_row = 0;  ///< the recommendation (a formula), in value_col
  lxw_col_t value_col = 1;
  lxw_col_t written_col = 2;  ///< gputco's recommendation when it wrote the workbook (a value)
  lxw_row_t first_option_row = 0;
  lxw_col_t label_col = 0;
  lxw_col_t holds_col = 1;  ///< 1: the option holds the model (the engine's fit), else 0
  lxw_col_t total_col = 2;
  lxw_col_t npv_col = 3;
  /// NPV if the option holds the model and is allowed (allowed_col), else ""
  lxw_col_t ranked_npv_col = 4;
  lxw_col_t tokens_col = 5;
  lxw_col_t per_million_col = 6;
  lxw_col_t per_user_col = 7;
  lxw_col_t scaled_col = 8;  ///< of the total, what scales with the hours of use
  lxw_col_t fixed_col = 9;
  lxw_col_t be_hours_per_day_col = 10;
  lxw_col_t be_hours_col = 11;
  lxw_col_t be_month_col = 12;
  lxw_col_t paid_back_col = 13;  ///< first month whose cumulative saving is not negative
  lxw_col_t payback_col = 14;
  lxw_col_t irr_start_col = 15;
  lxw_col_t irr_monthly_col = 16;
  lxw_col_t irr_refined_col = 17;
  lxw_col_t irr_col = 18;
  lxw_col_t be_tokens_col = 19;
  lxw_col_t units_col = 20;
  lxw_col_t cost_per_year_col = 21;
  /// 1: no constraint excludes the option (OptionResult::excluded_reason empty), else 0: it is
  /// never recommended (the reason in the Summary's notes and on the Inputs sheet)
  lxw_col_t allowed_col = 22;
  /// Of the total, what scales with the tokens per day at the same hours (engine
  /// volume_scaled_costs): the hours-scaled part less an owned unit's idle draw through the
  /// hours of use; and the rest, fixed in the volume.
  lxw_col_t volume_scaled_col = 23;
  lxw_col_t volume_fixed_col = 24;
  /// With a tax rate (issue #40; 0 without one): the after-tax total and NPV (the Cash flow
  /// sheet's after-tax sums). The recommendation then ranks the after-tax NPV.
  lxw_col_t after_tax_total_col = 0;
  lxw_col_t after_tax_npv_col = 0;
  /// The NPV the recommendation ranks (ranked_npv_col copies it): npv_col, or
  /// after_tax_npv_col with a tax rate.
  lxw_col_t ranking_npv_col = 3;
};

/// Writes the Metrics sheet (the full workbook): per option, the figures of the Summary as
/// formulas (cost per million tokens, per user, break-even hours, month and volume, payback,
/// IRR, the recommendation), each cached with the engine's value; the monthly rows they rest
/// on (saving against the baseline, its running sum, the break-even and paid-back flags).
MetricsLayout write_metrics_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const InputNames& names,
                                  const CashFlowLayout& layout);

/// Where the Profit and loss sheet puts things: plan year y (1-based) in column
/// first_year_col + y - 1; per option (plan order) the rows of its P&L cost, its cash and
/// their reconciling difference (0 when the two reconcile).
struct ProfitAndLossLayout {
  lxw_row_t year_row = 0;
  lxw_col_t sum_col = 1;
  lxw_col_t first_year_col = 2;
  lxw_col_t last_year_col = 2;
  /// Pages wide it prints on (eight plan years a page, the label columns repeated): the page
  /// setup applied last over every sheet must keep it.
  uint16_t pages_wide = 1;
  std::vector<lxw_row_t> total_rows;
  std::vector<lxw_row_t> cash_rows;
  std::vector<lxw_row_t> difference_rows;
  /// With a tax rate (issue #40): each option's row of the tax per plan year (saved < 0), in
  /// plan order; empty without one.
  std::vector<lxw_row_t> tax_rows;
};

/// Writes the Profit and loss sheet (the full workbook): per option and plan year the P&L
/// (operating expenses, VAT expensed, book depreciation, interest, disposal), the cash, the
/// items that reconcile them, and the tax depreciation per asset class, every figure a
/// formula over the Cash flow sheet and the Inputs cached with the engine's value
/// (OptionResult::profit_and_loss).
ProfitAndLossLayout write_profit_and_loss_sheet(SheetWriter& sheet, const Formats& formats,
                                                const Plan& plan, const ResolvedScenario& scenario,
                                                const InputNames& names,
                                                const CashFlowLayout& layout);

/// Where the Summary sheet puts things. Its tables list the options in plan order: option i
/// on first_option_row + i (the options and their cost), first_compare_row + i (break-even),
/// year_row_of(i, y) (cost by plan year), first_physical_row + i (speed, energy, emissions).
struct SummaryLayout {
  lxw_row_t recommendation_row = 0;  ///< the recommended option's name, in value_col
  lxw_col_t value_col = 1;
  lxw_row_t first_option_row = 0;
  lxw_col_t option_col = 0;
  lxw_col_t kind_col = 1;
  lxw_col_t devices_col = 2;
  lxw_col_t fit_col = 3;
  lxw_col_t total_col = 4;
  lxw_col_t npv_col = 5;
  lxw_col_t per_year_col = 6;
  lxw_col_t per_million_col = 7;
  lxw_col_t per_user_col = 8;
  /// With a tax rate (issue #40; 0 without one): the after-tax total and NPV beside them.
  lxw_col_t after_tax_total_col = 0;
  lxw_col_t after_tax_npv_col = 0;
  lxw_row_t first_compare_row = 0;  ///< 0: no break-even table (no baseline, no API)
  lxw_col_t be_hours_col = 1;
  lxw_col_t be_hours_per_day_col = 2;
  lxw_col_t break_even_month_col = 3;
  lxw_col_t payback_col = 4;
  lxw_col_t irr_col = 5;
  lxw_col_t be_tokens_col = 6;
  /// With a financed option (issue #40; 0 without): what each IRR is the return on (project
  /// or equity), and the project IRR (gputco's, as if bought for cash) beside it.
  lxw_col_t irr_basis_col = 0;
  lxw_col_t project_irr_col = 0;
  /// Cost by plan year: blocks of at most years_per_block plan years stacked down the sheet
  /// (so that a long horizon keeps the sheet one page wide), each a header row of its plan
  /// years above one row per option; block b (0-based, years b x years_per_block + 1 on)
  /// starts year_block_rows x b rows below the first. Use the functions below for a year's cell.
  lxw_row_t year_header_row = 0;  ///< the first block's header row
  lxw_row_t first_year_row = 0;   ///< option i of the first block on first_year_row + i
  lxw_col_t first_year_col = 1;
  size_t years = 0;
  size_t years_per_block = 10;
  lxw_row_t year_block_rows = 0;  ///< a block's header, its option rows and a blank row
  /// Row of the header holding plan year y (1-based).
  lxw_row_t year_header_row_of(size_t y) const {
    return static_cast<lxw_row_t>(year_header_row + (y - 1) / years_per_block * year_block_rows);
  }
  /// Row of option i (plan order) in the block of plan year y (1-based).
  lxw_row_t year_row_of(size_t i, size_t y) const {
    return static_cast<lxw_row_t>(year_header_row_of(y) + 1 + i);
  }
  /// Column of plan year y (1-based) in its block.
  lxw_col_t year_col_of(size_t y) const {
    return static_cast<lxw_col_t>(first_year_col + (y - 1) % years_per_block);
  }
  lxw_row_t first_physical_row = 0;
  lxw_col_t decode_col = 1;
  lxw_col_t kwh_col = 2;
  lxw_col_t co2e_col = 3;
  lxw_row_t first_component_row = 0;  ///< annual cost by component: option i, year y on
                                      ///< first_component_row + i x years + y
  lxw_col_t component_total_col = 0;  ///< that table's total column
};

/// Writes the Summary sheet: key facts and the recommendation, the options and their cost,
/// break-even against the baseline and the API, cost by plan year, speed, energy and emissions,
/// notes, the cumulative-cost chart (each owned option's break-even crossing marked) and the
/// stacked annual-cost chart, and the annual cost by component. With `metrics` (the full
/// workbook) every figure is a formula over the Metrics and Cash flow sheets cached with the
/// engine's value (and, with `names`, the peak line a formula over the Inputs); without (the
/// quote) the values. Prints one page wide at 75 % or more on
/// A4 and Letter (landscape) at every horizon: the cost by plan year wraps after ten years.
SummaryLayout write_summary_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                  const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const CumulativeSource& source,
                                  const MetricsLayout* metrics, const InputNames* names = nullptr);

/// Where the Sources sheet puts things. Source i is on row first_row + i.
struct SourcesLayout {
  lxw_row_t first_row = 0;
  size_t count = 0;
  lxw_col_t amount_col = 1;
  lxw_col_t age_col = 6;
  lxw_col_t stale_col = 7;
};

/// Where the Cover sheet puts things.
struct CoverLayout {
  lxw_row_t as_of_row = 0;   ///< the prices-as-of date (workbook name prices_as_of)
  lxw_row_t status_row = 0;  ///< the one status line (checks, stale prices, changed inputs)
  lxw_col_t value_col = 1;
};

/// What the Cover's status line reads: in the full workbook, cells and names its formula
/// uses; in the quote (master_check_cell empty) the values as checked in the full workbook.
struct CoverStatus {
  std::string master_check_cell;  ///< the Checks sheet's master check, "" in the quote
  bool checks_pass = true;        ///< its cached value
  std::string max_age_name;       ///< the Inputs name of max_price_age_days ("" if none)
  /// The Metrics cells of the recommendation now and as gputco wrote it ("" in the quote).
  std::string recommendation_now;
  std::string recommendation_written;
  bool recommendation_changed = false;  ///< cached: false when written
  /// The Checks' statuses (ChecksLayout): of the figures only gputco computes and of the
  /// engine's estimates the formulas read; "" in the quote.
  std::string inputs_changed_cell;
  std::string estimates_cell;
};

/// Workbook name of the Cover's prices-as-of date (the Sources ages count from it).
inline constexpr const char* kPricesAsOfName = "prices_as_of";

/// Writes the Cover: the seller (company, contact, logo), customer, quote, prices as of, valid
/// until (a formula), currency, VAT basis, horizon, paper; the option proposed (the seller's
/// choice) and the recommendation beside it with their cost (formulas over the Summary) and
/// the NPV between them; one status line (checks, prices older than allowed, changed inputs:
/// a formula in the full workbook, see CoverStatus); the seller's terms and the disclaimer.
/// Options by their label. Defines the name prices_as_of.
CoverLayout write_cover_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario,
                              const SummaryLayout& summary, const SourcesLayout& sources,
                              const CoverStatus& status);

/// The checks of a workbook, for the Checks sheet and the Cover.
struct ChecksLayout {
  lxw_row_t master_row = 0;
  lxw_col_t result_col = 2;
  bool all_pass = true;  ///< the master check's cached value
  /// The statuses "current" or "stale: re-run gputco" (0: none): of the figures only gputco
  /// computes (any input changed), and of the engine's estimates the formulas read.
  lxw_row_t inputs_changed_row = 0;
  lxw_row_t estimates_row = 0;
};

/// Where the Sensitivity sheet puts the Monte Carlo table (for the Checks).
struct SensitivityLayout {
  lxw_row_t monte_carlo_first_row = 0;  ///< P10 of option i on this + i (0: no table)
  lxw_col_t p10_col = 1;
  std::vector<size_t> monte_carlo_options;  ///< plan index of each Monte Carlo row
  lxw_row_t engine_base_row = 0;            ///< the engine's base difference (0: none)
  lxw_row_t workbook_base_row = 0;          ///< the same from the Cash flow NPVs (a formula)
  lxw_row_t difference_row = 0;             ///< Monte Carlo P10 of the difference (P50, P90 below)
  lxw_col_t value_col = 1;
};

/// Everything the Checks formulas read (all null in the quote, which has no Checks sheet).
struct CheckInputs {
  const CashFlowLayout* cash_flow = nullptr;
  const TimelineLayout* timeline = nullptr;
  const SummaryLayout* summary = nullptr;
  const SourcesLayout* sources = nullptr;
  const Sensitivity* sensitivity = nullptr;
  const SensitivityLayout* sensitivity_layout = nullptr;
  const MetricsLayout* metrics = nullptr;
  const ProfitAndLossLayout* profit_and_loss = nullptr;
};

/// Writes the Checks sheet (when `sheet` is given): one TRUE/FALSE formula per check with a
/// description, and the master check (their AND). Cached results are the same tests on the
/// engine's figures; without a sheet (the quote) only those results are computed, for the
/// Cover. Defines the name check_tolerance (relative tolerance of the equality checks).
ChecksLayout write_checks_sheet(lxw_workbook* workbook, SheetWriter* sheet, const Formats& formats,
                                const Plan& plan, const ResolvedScenario& scenario,
                                const InputNames& names, const CheckInputs& inputs);

/// Writes the Sensitivity sheet: the tornado (engine results, offsets from the base as
/// formulas; the base difference as a formula over the Cash flow NPVs) with its bar chart, and
/// the Monte Carlo (engine results: probability that buying beats renting, P10/P50/P90), and
/// what it varied: each uncertain input, its distribution, what it moves, and whether the
/// scenario's [risk] set it (its provenance) or it is the built-in default.
SensitivityLayout write_sensitivity_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                          const Formats& formats, const Plan& plan,
                                          const ResolvedScenario& scenario,
                                          const Sensitivity& sensitivity,
                                          const CashFlowLayout& layout);

/// Writes the Crossover sheet: total cost of each option against hours of use per day (the
/// engine's utilization sweep) with its line chart and a marker at the scenario's hours.
void write_crossover_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                           const Plan& plan, const ResolvedScenario& scenario,
                           const Sensitivity& sensitivity, const InputNames& names);

/// Writes the quote's Assumptions sheet: every input of the scenario (scenario.inputs) by
/// section, the plan's, the workload's, the site's and each option's (under its label), with
/// where each comes from in a customer's words (customer_provenance), and each option's
/// estimated decode speed.
void write_assumptions_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                             const ResolvedScenario& scenario);

/// Writes the Hardware sheet: fit and speed per option (engine figures as numbers), then,
/// with `names` and `layout`, the sizing for the peak (write_peak_sizing).
void write_hardware_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                          const ResolvedScenario& scenario, const InputNames* names = nullptr,
                          const CashFlowLayout* layout = nullptr);

/// Writes the Hardware sheet's sizing block from `first_row` (issue #21 item 5): the peak
/// demand of month 1 in output tokens/h (tokens_per_day / hours_per_day x peak_multiplier, the
/// Inputs cells), and per owned or rented option the replicas per unit (Inputs' replicas), one
/// replica's output tokens/s at the target (capacity_tokens_per_hour / seconds_per_hour /
/// replicas), the replicas and units the peak needs (MAX(1, ROUNDUP(x - load_tolerance, 0)),
/// as the Cash flow's units and always-on instances) and the instance-hours billed in month 1
/// (always on: units x the hours of availability; reserved: units x hours in the month;
/// autoscaled: month 1's rent / (rate x devices x price trend) x goodput). Every figure is a
/// live formula with the engine's value cached; api options are left out (the provider sizes
/// them), infeasible ones show n/a. Returns the row after the block. Throws XlsxError when a
/// name it reads is missing.
lxw_row_t write_peak_sizing(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                            const ResolvedScenario& scenario, const InputNames& names,
                            const CashFlowLayout& layout, lxw_row_t first_row);

/// Writes the Sources sheet (every catalog price used, with age and stale flag; then the
/// user's measured serving runs that `plan`'s serving estimates rest on, each with its file,
/// SHA-256 and date). When `live`, the age is a formula over the Cover's prices_as_of and the
/// stale flag one over the Inputs' max_price_age_days (when `names` has it); otherwise both are
/// values.
SourcesLayout write_sources_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                  const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const InputNames* names,
                                  bool live);

}  // namespace gputco::xlsx
