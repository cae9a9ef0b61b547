// Formats, labels and page setup shared by the sheets of the xlsx report.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

constexpr lxw_color_t kInputFont = 0x0000FF;   // blue: a value someone typed
constexpr lxw_color_t kInputFill = 0xFFF2CC;   // light yellow
constexpr lxw_color_t kHeaderFill = 0xD9E1F2;  // light blue-grey
constexpr lxw_color_t kHighlightFill = 0xE2EFDA;
constexpr lxw_color_t kWarningFill = 0xFCE4D6;
constexpr lxw_color_t kQuietFont = 0x808080;
constexpr lxw_color_t kFailFill = 0xFFC7CE;  // light red
constexpr lxw_color_t kFailFont = 0x9C0006;

/// A currency code safe inside a number format's quotes: letters only ("EUR", "USD").
bool is_plain_code(const std::string& currency) {
  return !currency.empty() && currency.size() <= 8 &&
         std::all_of(currency.begin(), currency.end(),
                     [](unsigned char c) { return std::isalpha(c) != 0; });
}

lxw_format* add(lxw_workbook* workbook) {
  lxw_format* format = workbook_add_format(workbook);
  if (format == nullptr) throw XlsxError("out of memory creating a cell format");
  return format;
}

/// A number format, right-aligned so that "n/a" written in its place lines up too.
lxw_format* numeric(lxw_workbook* workbook, const std::string& code) {
  lxw_format* format = add(workbook);
  format_set_num_format(format, code.c_str());
  format_set_align(format, LXW_ALIGN_RIGHT);
  return format;
}

}  // namespace

Formats make_formats(lxw_workbook* workbook, const std::string& currency) {
  Formats f;
  const std::string suffix = is_plain_code(currency) ? " \"" + currency + "\"" : "";

  f.title = add(workbook);
  format_set_bold(f.title);
  format_set_font_size(f.title, 16);
  f.subtitle = add(workbook);
  format_set_bold(f.subtitle);
  format_set_font_size(f.subtitle, 12);
  f.note = add(workbook);
  format_set_italic(f.note);
  format_set_font_color(f.note, kQuietFont);
  f.note_wrapped = add(workbook);
  format_set_italic(f.note_wrapped);
  format_set_font_color(f.note_wrapped, kQuietFont);
  format_set_text_wrap(f.note_wrapped);
  format_set_align(f.note_wrapped, LXW_ALIGN_VERTICAL_TOP);

  f.header = add(workbook);
  format_set_bold(f.header);
  format_set_bg_color(f.header, kHeaderFill);
  format_set_bottom(f.header, LXW_BORDER_THIN);
  format_set_text_wrap(f.header);
  format_set_align(f.header, LXW_ALIGN_VERTICAL_TOP);
  f.header_number = add(workbook);
  format_set_bold(f.header_number);
  format_set_bg_color(f.header_number, kHeaderFill);
  format_set_bottom(f.header_number, LXW_BORDER_THIN);
  format_set_text_wrap(f.header_number);
  format_set_align(f.header_number, LXW_ALIGN_VERTICAL_TOP);
  format_set_align(f.header_number, LXW_ALIGN_RIGHT);
  f.header_indented = add(workbook);
  format_set_bold(f.header_indented);
  format_set_bg_color(f.header_indented, kHeaderFill);
  format_set_bottom(f.header_indented, LXW_BORDER_THIN);
  format_set_text_wrap(f.header_indented);
  format_set_align(f.header_indented, LXW_ALIGN_VERTICAL_TOP);
  format_set_indent(f.header_indented, 1);
  f.month_header = numeric(workbook, "0");
  format_set_bold(f.month_header);
  format_set_bg_color(f.month_header, kHeaderFill);
  format_set_bottom(f.month_header, LXW_BORDER_THIN);
  format_set_align(f.month_header, LXW_ALIGN_CENTER);
  f.year_header = numeric(workbook, "\"Year \"0");
  format_set_bold(f.year_header);
  format_set_bg_color(f.year_header, kHeaderFill);
  format_set_bottom(f.year_header, LXW_BORDER_THIN);
  format_set_align(f.year_header, LXW_ALIGN_VERTICAL_TOP);

  f.label = add(workbook);
  format_set_bold(f.label);
  f.text = add(workbook);
  format_set_align(f.text, LXW_ALIGN_VERTICAL_TOP);
  f.bold = add(workbook);
  format_set_bold(f.bold);
  f.highlight = add(workbook);
  format_set_bold(f.highlight);
  format_set_bg_color(f.highlight, kHighlightFill);
  f.warning = add(workbook);
  format_set_bg_color(f.warning, kWarningFill);

  // Amounts in tables, whose titles and headers name the currency, in cents with an explicit
  // minus in the negative section. No conditional sections ([>=1000000]...): LibreOffice
  // drops the minus of a negative number that falls in a conditional format's last section
  // (the month's resale printed as 1,019.50 for -1,019.50) where Excel adds it, so the two
  // would show different signs. -999,999,999.99 fits a 14-character column (Calibri 11: 11
  // digits of 7 px, 4 separators of 3.5 px and the minus in 98 px).
  const std::string cents = "#,##0.00;-#,##0.00";
  f.money = numeric(workbook, cents);
  f.money_whole = numeric(workbook, "#,##0");
  f.money_bold = numeric(workbook, cents);
  format_set_bold(f.money_bold);
  f.money_quiet = numeric(workbook, cents);
  format_set_font_color(f.money_quiet, kQuietFont);
  f.amount = numeric(workbook, "#,##0.00##");
  f.decimal1 = numeric(workbook, "#,##0.0");
  f.decimal2 = numeric(workbook, "#,##0.00");
  f.integer = numeric(workbook, "#,##0");
  f.identifier = numeric(workbook, "0");
  f.hours = numeric(workbook, "#,##0\" h\"");
  f.months = numeric(workbook, "0\" months\"");
  format_set_align(f.months, LXW_ALIGN_LEFT);
  f.factor = numeric(workbook, "0.000000");
  f.flag = numeric(workbook, "0");
  format_set_font_color(f.flag, kQuietFont);
  f.flag_label = add(workbook);
  format_set_italic(f.flag_label);
  format_set_font_color(f.flag_label, kQuietFont);
  f.date = numeric(workbook, "yyyy-mm-dd");
  format_set_align(f.date, LXW_ALIGN_LEFT);

  f.input_number = numeric(workbook, "General");
  format_set_font_color(f.input_number, kInputFont);
  format_set_bg_color(f.input_number, kInputFill);
  f.input_text = add(workbook);
  format_set_font_color(f.input_text, kInputFont);
  format_set_bg_color(f.input_text, kInputFill);
  f.constant_number = numeric(workbook, "General");
  f.fixed_number = numeric(workbook, "General");
  f.fixed_text = add(workbook);
  f.derived_number = numeric(workbook, "General");
  f.label_top = add(workbook);
  format_set_bold(f.label_top);
  format_set_align(f.label_top, LXW_ALIGN_VERTICAL_TOP);
  f.name_wrapped = add(workbook);
  format_set_bold(f.name_wrapped);
  format_set_text_wrap(f.name_wrapped);
  format_set_align(f.name_wrapped, LXW_ALIGN_VERTICAL_TOP);
  f.highlight_wrapped = add(workbook);
  format_set_bold(f.highlight_wrapped);
  format_set_bg_color(f.highlight_wrapped, kHighlightFill);
  format_set_text_wrap(f.highlight_wrapped);
  format_set_align(f.highlight_wrapped, LXW_ALIGN_VERTICAL_TOP);
  f.value_text = add(workbook);
  format_set_align(f.value_text, LXW_ALIGN_RIGHT);
  format_set_italic(f.derived_number);
  format_set_font_color(f.derived_number, kQuietFont);
  f.not_available = add(workbook);
  format_set_align(f.not_available, LXW_ALIGN_RIGHT);
  f.indented = add(workbook);
  format_set_indent(f.indented, 1);

  f.percent = numeric(workbook, "0.0%");
  f.percent2 = numeric(workbook, "0.00%");
  f.days = numeric(workbook, "0\" days\"");
  format_set_align(f.days, LXW_ALIGN_LEFT);
  f.check = numeric(workbook, "\"TRUE\";\"TRUE\";\"FALSE\"");
  format_set_align(f.check, LXW_ALIGN_CENTER);
  format_set_bold(f.check);
  f.check_text = add(workbook);
  format_set_align(f.check_text, LXW_ALIGN_CENTER);
  format_set_font_color(f.check_text, kQuietFont);
  f.input_date = numeric(workbook, "yyyy-mm-dd");
  format_set_align(f.input_date, LXW_ALIGN_LEFT);
  format_set_font_color(f.input_date, kInputFont);
  format_set_bg_color(f.input_date, kInputFill);
  f.period_date = numeric(workbook, "yyyy-mm-dd");
  format_set_align(f.period_date, LXW_ALIGN_CENTER);
  f.wrapped = add(workbook);
  format_set_text_wrap(f.wrapped);
  format_set_align(f.wrapped, LXW_ALIGN_VERTICAL_TOP);
  f.fail = add(workbook);
  format_set_bg_color(f.fail, kFailFill);
  format_set_font_color(f.fail, kFailFont);
  f.pass = add(workbook);
  format_set_bg_color(f.pass, kHighlightFill);
  f.integer_left = numeric(workbook, "#,##0");
  format_set_align(f.integer_left, LXW_ALIGN_LEFT);
  f.money_whole_left = numeric(workbook, "#,##0" + suffix);
  format_set_align(f.money_whole_left, LXW_ALIGN_LEFT);
  return f;
}

std::string kind_label(OptionKind kind, const OptionInputs* option) {
  switch (kind) {
    case OptionKind::buy: {
      if (option == nullptr) return "buy";
      const std::string condition = option->condition == Condition::used ? "used" : "new";
      if (option->financing == Financing::lease) return "lease (" + condition + ")";
      if (option->financing == Financing::loan) return "buy (" + condition + ", loan)";
      return "buy (" + condition + ")";
    }
    case OptionKind::rent_hourly:
      if (option == nullptr) return "rent hourly";
      switch (option->term) {
        case RentTerm::on_demand:
          return "rent hourly (on demand)";
        case RentTerm::spot:
          return "rent hourly (spot)";
        case RentTerm::reserved_1y:
          return "rent hourly (reserved 1 year)";
        case RentTerm::reserved_3y:
          return "rent hourly (reserved 3 years)";
      }
      return "rent hourly";
    case OptionKind::rent_monthly:
      return "rent monthly";
    case OptionKind::api:
      return "API (per token)";
  }
  return "unknown";
}

std::string verdict_label(Verdict verdict) {
  switch (verdict) {
    case Verdict::fits:
      return "fits";
    case Verdict::tight:
      return "tight";
    case Verdict::does_not_fit:
      return "does not fit";
  }
  return "unknown";
}

const OptionInputs* find_option_inputs(const ResolvedScenario& scenario, const std::string& id) {
  for (const auto& option : scenario.plan_inputs.options) {
    if (option.id == id) return &option;
  }
  return nullptr;
}

std::string devices_label(const OptionInputs* option) {
  if (option == nullptr) return std::string(kNotAvailable);
  if (option->kind == OptionKind::api) {
    return "hosted (API)" + (option->api_model.empty() ? std::string() : ": " + option->api_model);
  }
  const std::string& device = option->device.name.empty() ? option->device.id : option->device.name;
  const std::string devices = std::to_string(option->count) + " x " + device;
  // A catalog system: its name first, as the seller quotes it.
  if (!option->system_id.empty()) {
    return (option->system_name.empty() ? option->system_id : option->system_name) + ": " + devices;
  }
  return devices;
}

void set_print_layout(SheetWriter& sheet) {
  lxw_worksheet* ws = sheet.raw();
  worksheet_set_landscape(ws);
  worksheet_fit_to_pages(ws, 1, 0);  // one page wide, as many tall as needed
  worksheet_set_margins(ws, 0.5, 0.5, 0.6, 0.6);
  // &A = sheet name, &P/&N = page numbers; no user text here (& is a code in footers).
  check_xlsx(worksheet_set_footer(ws, "&L&A&RPage &P of &N"),
             "setting the footer of " + sheet.name());
}

void write_wrapped_across(SheetWriter& sheet, lxw_row_t row, lxw_col_t first, lxw_col_t last,
                          double chars_per_line, const std::string& text, lxw_format* format) {
  if (last > first) {
    check_xlsx(worksheet_merge_range(sheet.raw(), row, first, row, last, "", format),
               "merging a paragraph on " + sheet.name());
  }
  sheet.text(row, first, text, format);
  // Lines of text: explicit line breaks, each line wrapped at chars_per_line (at least one).
  const double per_line = std::max(1.0, chars_per_line);
  double lines = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    lines += std::max(1.0, std::ceil(static_cast<double>(end - start) / per_line));
    start = end + 1;
  }
  constexpr double kLinePoints = 15;
  check_xlsx(worksheet_set_row(sheet.raw(), row, kLinePoints * lines, nullptr),
             "sizing a paragraph on " + sheet.name());
}

namespace {

/// Excel's limit on a header or footer, in characters, codes included (libxlsxwriter refuses
/// a longer one: LXW_HEADER_FOOTER_MAX).
constexpr size_t kHeaderFooterMaxChars = LXW_HEADER_FOOTER_MAX;

/// Characters (UTF-8 code points) in `text`; `text` is valid UTF-8 (cell_text made it so).
size_t utf8_chars(const std::string& text) {
  size_t chars = 0;
  for (char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return chars;
}

}  // namespace

std::string header_footer_text(const std::string& text, size_t max_chars) {
  // Escaped character by character: '&' (a code there) becomes "&&", so a cut between
  // characters never leaves half a code; a cut text ends in an ellipsis.
  std::vector<std::string> pieces;
  const std::string clean = cell_text(text);
  for (size_t i = 0; i < clean.size();) {
    size_t length = 1;
    while (i + length < clean.size() &&
           (static_cast<unsigned char>(clean[i + length]) & 0xC0) == 0x80) {
      ++length;
    }
    // A line break would start a second header line: a space keeps it on one.
    std::string piece = clean.substr(i, length);
    if (piece == "&") piece = "&&";
    if (piece == "\n" || piece == "\t") piece = " ";
    pieces.push_back(piece);
    i += length;
  }
  size_t total = 0;
  for (const auto& piece : pieces) total += utf8_chars(piece);
  std::string out;
  if (total <= max_chars) {
    for (const auto& piece : pieces) out += piece;
    return out;
  }
  static const std::string kEllipsis = "\xE2\x80\xA6";  // U+2026
  size_t used = 0;
  for (const auto& piece : pieces) {
    const size_t chars = utf8_chars(piece);
    if (used + chars + 1 > max_chars) break;  // room for the ellipsis
    out += piece;
    used += chars;
  }
  return max_chars == 0 ? std::string() : out + kEllipsis;
}

namespace {

/// The page header: the customer on the left, "Quote ID" on the right. The quote id is
/// placed first and whole (cut only beyond half the limit), the customer gets what is left:
/// a long name never pushes the quote id out or cuts a code.
std::string page_header(const ResolvedScenario& scenario) {
  const std::string left_code = "&L", right_code = "&R";
  const std::string right =
      scenario.quote_id.empty()
          ? std::string()
          : header_footer_text("Quote " + scenario.quote_id, kHeaderFooterMaxChars / 2);
  const size_t left_room =
      kHeaderFooterMaxChars - left_code.size() - right_code.size() - utf8_chars(right);
  return left_code + header_footer_text(scenario.customer, left_room) + right_code + right;
}

}  // namespace

int quote_valid_days(const ResolvedScenario& scenario) {
  return scenario.valid_days;
}

PrintSetup print_setup(const ResolvedScenario& scenario) {
  PrintSetup setup;
  // The parser admits a4 | letter only (scenario key `paper`).
  setup.paper = scenario.paper == "letter" ? 1 : 9;
  setup.header = page_header(scenario);
  setup.footer =
      "&L" + header_footer_text("Prices as of " + scenario.as_of, 60) + "&CPage &P of &N&R&A";
  return setup;
}

void apply_print_setup(SheetWriter& sheet, const PrintSetup& setup, bool landscape) {
  lxw_worksheet* ws = sheet.raw();
  worksheet_set_paper(ws, setup.paper);
  if (landscape) {
    worksheet_set_landscape(ws);
  } else {
    worksheet_set_portrait(ws);
  }
  worksheet_fit_to_pages(ws, 1, 0);  // one page wide, as many tall as needed
  worksheet_set_margins(ws, 0.5, 0.5, 0.75, 0.75);
  check_xlsx(worksheet_set_header(ws, setup.header.c_str()),
             "setting the header of " + sheet.name());
  check_xlsx(worksheet_set_footer(ws, setup.footer.c_str()),
             "setting the footer of " + sheet.name());
}

std::string vat_basis_label(const FinanceInputs& finance) {
  if (finance.vat_rate <= 0) return "excl. VAT (no VAT rate in the scenario)";
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", finance.vat_rate * 100);
  if (finance.vat_reclaimable) {
    return std::string("excl. VAT (") + rate + " % VAT reclaimed by the buyer)";
  }
  return std::string("incl. ") + rate + " % VAT (not reclaimable: a cost, on its own row)";
}

void write_figure(SheetWriter& sheet, bool live, lxw_row_t row, lxw_col_t col,
                  const std::string& formula, double cached, lxw_format* format) {
  if (live) {
    sheet.formula(row, col, formula, cached, format);
  } else {
    sheet.number(row, col, cached, format);
  }
}

void write_check(SheetWriter& sheet, bool live, lxw_row_t row, lxw_col_t col,
                 const std::string& formula, bool cached, lxw_format* format) {
  if (live) {
    sheet.formula(row, col, formula, cached ? 1.0 : 0.0, format);
  } else {
    check_xlsx(worksheet_write_boolean(sheet.raw(), row, col, cached ? 1 : 0, format),
               "writing a check to " + sheet.name());
  }
}

std::vector<std::pair<std::string, std::string>> InputNames::keys() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, name] : names_) out.push_back(key);
  return out;
}

void InputNames::add(const std::string& section, const std::string& key, const std::string& name,
                     lxw_row_t row, double value, bool derived, bool blank) {
  names_.emplace(std::make_pair(section, key), Cell{name, row, value, derived, blank});
}

const InputNames::Cell& InputNames::cell(const std::string& section, const std::string& key) const {
  const auto it = names_.find({section, key});
  if (it == names_.end()) throw XlsxError("no Inputs cell for " + section + "." + key);
  return it->second;
}

const std::string& InputNames::at(const std::string& section, const std::string& key) const {
  const Cell& found = cell(section, key);
  used_.insert({section, key});
  return found.name;
}

bool InputNames::has(const std::string& section, const std::string& key) const {
  return names_.count({section, key}) > 0;
}

bool InputNames::used(const std::string& section, const std::string& key) const {
  return used_.count({section, key}) > 0;
}

const std::string& InputNames::name_of(const std::string& section, const std::string& key) const {
  return cell(section, key).name;
}

lxw_row_t InputNames::row_of(const std::string& section, const std::string& key) const {
  return cell(section, key).row;
}

double InputNames::value_of(const std::string& section, const std::string& key) const {
  return cell(section, key).value;
}

bool InputNames::derived(const std::string& section, const std::string& key) const {
  return cell(section, key).derived;
}

bool InputNames::blank(const std::string& section, const std::string& key) const {
  return cell(section, key).blank;
}

std::string InputNames::written_ref(const std::string& section, const std::string& key) const {
  return sheet_cell_ref(kInputsSheet, cell(section, key).row, kInputsWrittenCol);
}

std::string changed_inputs_count() {
  return std::string("SUMPRODUCT(ISNUMBER(") + kInputsWrittenName + ")*(" + kInputsNowName + "<>" +
         kInputsWrittenName + "))";
}

}  // namespace gputco::xlsx
