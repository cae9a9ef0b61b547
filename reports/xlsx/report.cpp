#include "reports/xlsx/report.hpp"

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iterator>
#include <memory>
#include <optional>

#include "engine/base/units.hpp"
#include "reports/child_process.hpp"
#include "reports/source_citation.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco {
namespace xlsx {

namespace {
bool is_leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}
int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}
}  // namespace

std::optional<lxw_datetime> parse_iso_date(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int fields[3] = {0, 0, 0};
  const int starts[3] = {0, 5, 8};
  const int lengths[3] = {4, 2, 2};
  for (int f = 0; f < 3; ++f) {
    for (int k = 0; k < lengths[f]; ++k) {
      const char c = text[static_cast<size_t>(starts[f] + k)];
      if (c < '0' || c > '9') return std::nullopt;
      fields[f] = fields[f] * 10 + (c - '0');
    }
  }
  const int year = fields[0], month = fields[1], day = fields[2];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) {
    return std::nullopt;
  }
  return lxw_datetime{year, month, day, 0, 0, 0.0};
}

long long days_since_1970(int year, int month, int day) {
  const int y = month <= 2 ? year - 1 : year;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int mp = (month + 9) % 12;
  const int doy = (153 * mp + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<long long>(era) * 146097 + doe - 719468;
}

double date_serial(int year, int month, int day) {
  return static_cast<double>(days_since_1970(year, month, day) + 25569);
}

namespace {

/// Seconds since 1970-01-01 UTC at midnight of `date`.
std::time_t utc_midnight(const lxw_datetime& date) {
  return static_cast<std::time_t>(days_since_1970(date.year, date.month, date.day) * 86400);
}

}  // namespace

namespace {

/// The Hardware sheet's fleet columns from `first`: replicas per unit, units needed in month 1
/// and at most, sequences in flight per replica at the peak and the mean hour, TPOT and TTFT
/// p99 at the peak hour (engine/fleet/fleet_load.hpp); "n/a" where the option is not priced or the
/// serving model did not size it.
void write_fleet_columns(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                         lxw_row_t row, lxw_col_t first) {
  const auto na = [&](lxw_col_t col) {
    sheet.text(row, col, kNotAvailable, formats.not_available);
  };
  if (!option.feasible) {
    for (lxw_col_t c = first; c < first + 7; ++c) na(c);
    return;
  }
  sheet.number(row, first, option.replicas, formats.integer);
  const std::vector<double>& needed = option.units_needed;
  if (needed.size() > 1) {
    sheet.number(row, first + 1, needed[1], formats.integer);
    sheet.number(row, first + 2, *std::max_element(needed.begin(), needed.end()), formats.integer);
  } else {
    na(first + 1);
    na(first + 2);
  }
  if (const auto& l = option.serving_load) {
    sheet.number(row, first + 3, l->peak.in_flight, formats.decimal1);
    sheet.number(row, first + 4, l->mean.in_flight, formats.decimal1);
    sheet.number(row, first + 5, l->peak.tpot_p99_ms, formats.decimal1);
    sheet.number(row, first + 6, l->peak.ttft_p99_ms, formats.decimal1);
  } else {
    for (lxw_col_t c = first + 3; c < first + 7; ++c) na(c);
  }
}

/// The Hardware sheet's table: 23 columns, the fleet's last (write_fleet_columns from 16).
constexpr lxw_col_t kHardwareColumns = 23;

/// The sheet's title and the note on what the table shows (model, context, streams, KV
/// cache, units), rows 0 and 1.
void write_hardware_title(SheetWriter& sheet, const Formats& formats, const PlanInputs& in) {
  sheet.text(0, 0, "Hardware: fit and speed", formats.title);
  const std::string model = in.model.name.empty() ? in.model.id : in.model.name;
  sheet.text(1, 0,
             "Model " + model + " (" + in.quant.id + "), " +
                 std::to_string(in.workload.context_tokens) + " tokens of context x " +
                 std::to_string(in.workload.concurrent_streams) +
                 " concurrent stream(s) per replica, KV cache " + to_string(in.workload.kv_cache) +
                 ". Memory in GiB (2^30 bytes); decode speed estimated from memory bandwidth. "
                 "Fleet (issue #43): the whole units each month's peak hour needs, and one "
                 "replica at the plan's load in month 1 (sequences in flight by Little's law, "
                 "the serving model's per-token and first-token times there); tokens/s per "
                 "stream is the mean hour's.",
             formats.note);
}

/// The table's header at row `header`, 45 points tall.
void write_hardware_header(SheetWriter& sheet, const Formats& formats, lxw_row_t header) {
  const char* headers[] = {"Option",
                           "Device",
                           "Count",
                           "Weights GiB",
                           "KV cache GiB",
                           "Overhead GiB (compute buffers, vision)",
                           "Total GiB",
                           "Usable GiB",
                           "Headroom GiB",
                           "Verdict",
                           "Devices needed",
                           "Decode tokens/s per stream",
                           "Aggregate tokens/s",
                           "Power at load W",
                           "kWh/month at full load in the hours of use",
                           "Host RAM GiB (token embedding, llama.cpp)",
                           "Replicas per unit",
                           "Units needed in month 1",
                           "Units needed at most",
                           "In flight per replica, peak hour",
                           "In flight per replica, mean hour",
                           "TPOT p99 ms, peak hour",
                           "TTFT p99 ms, peak hour"};
  for (lxw_col_t c = 0; c < kHardwareColumns; ++c) {
    // Numbers are right-aligned under right-aligned headers; the verdict follows a number.
    sheet.text(header, c, headers[c],
               c == 9   ? formats.header_indented
               : c >= 2 ? formats.header_number
                        : formats.header);
  }
  check_xlsx(worksheet_set_row(sheet.raw(), header, 45, nullptr), "sizing the Hardware header");
}

/// An api option's row from column 1: the provider serves the model, so no memory, speed or
/// power of ours to show (zeros would look like a fit).
void write_hosted_row(SheetWriter& sheet, const Formats& formats, const OptionInputs* inputs,
                      lxw_row_t row) {
  sheet.text(row, 1, devices_label(inputs));
  for (lxw_col_t c = 2; c < kHardwareColumns; ++c) {
    sheet.text(row, c, c == 9 ? "hosted" : "hosted (API)",
               c == 9 ? formats.indented : formats.not_available);
  }
}

/// An owned or rented option's fit and speed, columns 1 to 15: the device and count, memory
/// (weights, KV cache, overhead, total, usable, headroom), the verdict, the devices needed,
/// decode speed, power, energy and host RAM.
void write_fit_columns(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                       const OptionInputs* inputs, lxw_row_t row) {
  const MemoryBreakdown& memory = option.fit.memory;
  if (inputs != nullptr) {
    sheet.text(row, 1, inputs->device.name.empty() ? inputs->device.id : inputs->device.name);
    sheet.number(row, 2, inputs->count, formats.integer);
  } else {
    sheet.text(row, 1, kNotAvailable);
    sheet.text(row, 2, kNotAvailable, formats.not_available);
  }
  sheet.number(row, 3, memory.weights_gib, formats.decimal2);
  sheet.number(row, 4, memory.kv_cache_gib, formats.decimal2);
  sheet.number(row, 5, memory.overhead_gib + memory.projector_gib + memory.image_buffer_gib,
               formats.decimal2);
  sheet.number(row, 6, memory.total_gib, formats.decimal2);
  sheet.number(row, 7, option.fit.usable_gib, formats.decimal2);
  sheet.number(row, 8, option.fit.headroom_gib, formats.decimal2);
  sheet.text(row, 9, verdict_label(option.fit.verdict),
             option.feasible ? formats.indented : formats.warning);
  if (option.devices_needed > 0) {
    sheet.number(row, 10, option.devices_needed, formats.integer);
  } else {
    sheet.text(row, 10, "none fits", formats.not_available);
  }
  if (option.feasible) {
    sheet.number(row, 11, option.speed.decode_tokens_per_s, formats.decimal1);
    sheet.number(row, 12, option.speed.aggregate_tokens_per_s, formats.decimal1);
  } else {
    sheet.text(row, 11, kNotAvailable, formats.not_available);
    sheet.text(row, 12, kNotAvailable, formats.not_available);
  }
  sheet.number(row, 13, option.power_at_load_w, formats.integer);
  if (option.kind == OptionKind::buy) {
    sheet.number(row, 14, option.energy_kwh_per_month, formats.decimal1);
  } else {
    sheet.text(row, 14, "in the rent", formats.not_available);
  }
  // Device memory (columns 3-6) leaves out what llama.cpp keeps in host RAM; a vision
  // projector and its image buffer are in the overhead.
  sheet.number(row, 15, memory.host_embedding_gib, formats.decimal2);
}

/// The columns' widths, and the panes frozen below the header and right of the options.
void size_hardware_columns(SheetWriter& sheet, lxw_row_t header) {
  sheet.width(0, 0, 24);
  sheet.width(1, 1, 26);
  sheet.width(2, 5, 11);
  // The sizing block's "Instance-hours billed in month 1": "Instance-hours" is 14 wide.
  sheet.width(6, 6, 15);
  sheet.width(7, 13, 11);
  sheet.width(14, 15, 13);
  sheet.width(16, kHardwareColumns - 1, 11);
  worksheet_freeze_panes(sheet.raw(), header + 1, 1);
}

}  // namespace

void write_hardware_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                          const ResolvedScenario& scenario, const InputNames* names,
                          const CashFlowLayout* layout) {
  write_hardware_title(sheet, formats, scenario.plan_inputs);
  const lxw_row_t header = 3;
  write_hardware_header(sheet, formats, header);
  lxw_row_t row = header + 1;
  for (const OptionResult& option : plan.options) {
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    sheet.text(row, 0, option_label(scenario, option.id), formats.bold);
    if (option.kind == OptionKind::api) {
      write_hosted_row(sheet, formats, inputs, row);
    } else {
      write_fit_columns(sheet, formats, option, inputs, row);
      write_fleet_columns(sheet, formats, option, row, 16);
    }
    ++row;
  }
  if (names != nullptr && layout != nullptr) {
    write_peak_sizing(sheet, formats, plan, scenario, *names, *layout, row + 1);
  }
  size_hardware_columns(sheet, header);
}

namespace {

/// The user's measured serving runs (gputco calibrate) that the plan's serving estimates rest
/// on, below the prices from `first_row`: one row each, the options that use it, its figures,
/// its day and its file (SHA-256 in the cell's note). Nothing when no option used any.
void write_measured_runs(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                         const ResolvedScenario& scenario, lxw_row_t first_row) {
  std::vector<std::pair<const MeasuredServingRun*, std::string>> used;
  for (const MeasuredServingRun& run : scenario.plan_inputs.measured_runs) {
    std::string options;
    for (const OptionResult& o : plan.options) {
      if (!o.serving) continue;
      const auto& ids = o.serving->calibration.run_ids;
      if (std::find(ids.begin(), ids.end(), run.id) == ids.end()) continue;
      options += (options.empty() ? "" : ", ") + option_label(scenario, o.id);
    }
    if (!options.empty()) used.emplace_back(&run, options);
  }
  if (used.empty()) return;
  lxw_row_t row = first_row;
  sheet.text(row++, 0, "Your measured serving runs", formats.header);
  sheet.text(row++, 0,
             "The serving estimates of these options are refitted to your own benchmark runs "
             "(gputco calibrate): measured figures, not published ones.",
             formats.note);
  const char* headers[] = {"Run (options)", "Output tok/s", "TPOT ms",   "Setup",
                           "Measured on",   "File",         "In flight", "Tokens in/out"};
  for (lxw_col_t c = 0; c < 8; ++c) {
    sheet.text(row, c, headers[c],
               c == 1 || c == 2 || c == 6 ? formats.header_number : formats.header);
  }
  ++row;
  for (const auto& [run, options] : used) {
    sheet.text(row, 0, run->id + " (" + options + ")");
    sheet.number(row, 1, run->output_tokens_per_s, formats.amount);
    if (run->mean_tpot_ms > 0) sheet.number(row, 2, run->mean_tpot_ms, formats.amount);
    std::string setup = std::to_string(run->gpu_count) + " x " + run->device_id + ", " +
                        display_name(run->engine) +
                        (run->engine_version.empty() ? "" : " " + run->engine_version);
    if (run->tp > 0) setup += ", TP" + std::to_string(run->tp);
    sheet.text(row, 3, setup);
    if (const auto day = parse_iso_date(run->measured_on)) {
      sheet.date(row, 4, *day, formats.date);
    } else {
      sheet.text(row, 4, run->measured_on);
    }
    sheet.text(row, 5, run->file_name);
    const std::string reference =
        cell_text("SHA-256 " + run->file_sha256 + "\nrun " +
                  std::to_string(run->index_in_file + 1) + " of the file (" + run->format + ")");
    lxw_comment_options note{};
    note.width = 480;
    note.height = 60;
    check_xlsx(worksheet_write_comment_opt(sheet.raw(), row, 5, reference.c_str(), &note),
               "writing the note of a measured run on " + sheet.name());
    sheet.number(row, 6, run->concurrency, formats.amount);
    sheet.text(row, 7,
               std::to_string(static_cast<long long>(std::lround(run->input_tokens))) + " / " +
                   std::to_string(static_cast<long long>(std::lround(run->output_tokens))));
    ++row;
  }
}

}  // namespace

SourcesLayout write_sources_sheet(lxw_workbook* /*workbook*/, SheetWriter& sheet,
                                  const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const InputNames* names,
                                  bool live) {
  SourcesLayout layout;
  sheet.text(0, 0, "Sources", formats.title);
  sheet.text(1, 0,
             "Every catalog price the plan uses, as published: who published it and when (the "
             "full reference and its address in the cell's note). Age at the as-of date " +
                 scenario.as_of + "; older than " + std::to_string(scenario.max_price_age_days) +
                 " days is stale.",
             formats.note);
  const char* headers[] = {"What",        "Amount",       "Currency",   "Unit",
                           "Observed on", "Published by", "Age (days)", "Stale"};
  const lxw_row_t header = 3;
  for (lxw_col_t c = 0; c < 8; ++c) {
    sheet.text(header, c, headers[c],
               c == 1 || c == 6 ? formats.header_number
               : c == 2         ? formats.header_indented
                                : formats.header);
  }
  const bool stale_live = live && names != nullptr && names->has("scenario", "max_price_age_days");
  lxw_row_t row = header + 1;
  layout.first_row = row;
  layout.count = scenario.sources.size();
  for (const SourceRow& source : scenario.sources) {
    sheet.text(row, 0, source.what);
    sheet.number(row, layout.amount_col, source.amount, formats.amount);
    sheet.text(row, 2, source.currency, formats.indented);
    sheet.text(row, 3, source.unit);
    const auto observed = parse_iso_date(source.observed_on);
    if (observed) {
      sheet.date(row, 4, *observed, formats.date);
    } else {
      sheet.text(row, 4, source.observed_on);
    }
    const SourceCitation citation = cite_source(source.source);
    sheet.text(row, 5, citation.publisher);
    const std::string reference =
        cell_text("Source as recorded: " + source.source +
                  (citation.address.empty() ? "" : "\nAddress: " + citation.address));
    lxw_comment_options note{};
    note.width = 480;
    note.height = 120;
    check_xlsx(worksheet_write_comment_opt(sheet.raw(), row, 5, reference.c_str(), &note),
               "writing the note of a source on " + sheet.name());
    // Age = as-of date - observation date: a formula over the Cover's prices_as_of.
    write_figure(sheet, live && observed.has_value(), row, layout.age_col,
                 std::string("=") + kPricesAsOfName + "-" + cell_ref(row, 4), source.age_days,
                 formats.integer);
    const char* flag = source.stale ? "stale" : "no";
    if (stale_live) {
      // Against the maximum gputco chose the prices by, as a number: a workbook cannot
      // re-pick catalog prices, so max_price_age_days is no input its formulas read (the
      // Inputs sheet says "no: rerun gputco" beside it).
      const std::string formula = "=IF(" + cell_ref(row, layout.age_col) + ">" +
                                  std::to_string(scenario.max_price_age_days) +
                                  ",\"stale\",\"no\")";
      sheet.formula_text(row, layout.stale_col, formula, flag, formats.indented);
    } else {
      sheet.text(row, layout.stale_col, flag, formats.indented);
    }
    ++row;
  }
  if (!scenario.sources.empty()) {
    // The stale flag is highlighted by rule, so it follows a changed age or maximum.
    const std::string rule =
        "=" + cell_ref(layout.first_row, layout.stale_col, false, true) + "=\"stale\"";
    lxw_conditional_format stale{};
    stale.type = LXW_CONDITIONAL_TYPE_FORMULA;
    stale.value_string = const_cast<char*>(rule.c_str());
    stale.format = formats.warning;
    check_xlsx(worksheet_conditional_format_range(sheet.raw(), layout.first_row, 0, row - 1,
                                                  layout.stale_col, &stale),
               "highlighting stale prices");
  }
  write_measured_runs(sheet, formats, plan, scenario, row + 1);
  // 32 + 17 + 9 + 26 + 12 + 34 + 10 + 7 characters print one page wide at 80 % or more on A4
  // and Letter (landscape); an amount up to 10^9 with cents fits its 17.
  sheet.width(0, 0, 32);
  sheet.width(1, 1, 17);
  sheet.width(2, 2, 9);
  sheet.width(3, 3, 26);
  sheet.width(4, 4, 12);
  sheet.width(5, 5, 34);
  sheet.width(6, 6, 10);
  sheet.width(7, 7, 7);
  worksheet_freeze_panes(sheet.raw(), header + 1, 0);
  check_xlsx(worksheet_repeat_rows(sheet.raw(), header, header), "setting Sources print titles");
  return layout;
}

CumulativeSource cash_flow_source(const CashFlowLayout& layout) {
  CumulativeSource source;
  source.sheet = kCashFlowSheet;
  source.month_row = layout.month_row;
  source.first_col = layout.first_month_col;
  source.last_col = layout.last_month_col;
  source.name_col = layout.label_col;
  source.sum_col = layout.sum_col;
  source.year_row = layout.year_row;
  for (const OptionBlock& block : layout.blocks) {
    source.name_rows.push_back(block.title);
    source.cumulative_rows.push_back(block.cumulative);
    source.total_rows.push_back(block.total);
    source.discounted_rows.push_back(block.discounted);
    for (size_t c = 0; c < xlsx::kCostComponents; ++c) {
      source.component_rows[c].push_back(xlsx::cost_component_row(block, c));
    }
    source.energy_kwh_rows.push_back(block.energy_kwh);
    source.co2e_kg_rows.push_back(block.co2e_kg);
  }
  return source;
}

CumulativeSource write_chart_data_sheet(SheetWriter& sheet, const Formats& formats,
                                        const Plan& plan, const ResolvedScenario& scenario) {
  CumulativeSource source;
  source.sheet = kChartDataSheet;
  source.month_row = 2;
  source.year_row = 3;
  source.first_col = 2;
  source.last_col = static_cast<lxw_col_t>(source.first_col + plan.horizon_months);
  source.name_col = 0;
  source.sum_col = 1;
  sheet.text(0, 0,
             "Chart data: the full workbook's figures, as values (the Summary's charts plot "
             "them)",
             formats.note);
  sheet.text(source.month_row, 0, "Month", formats.header);
  sheet.text(source.year_row, 0, "Plan year", formats.flag_label);
  for (int m = 0; m <= plan.horizon_months; ++m) {
    const auto col = static_cast<lxw_col_t>(source.first_col + m);
    sheet.number(source.month_row, col, m, formats.month_header);
    sheet.number(source.year_row, col, m == 0 ? 1 : (m - 1) / kMonthsPerYear + 1, formats.flag);
  }
  lxw_row_t row = source.year_row + 2;
  for (const OptionResult& option : plan.options) {
    const CashFlow& cf = option.cash_flow;
    source.name_rows.push_back(row);
    sheet.text(row++, 0, option_label(scenario, option.id), formats.subtitle);
    for (size_t c = 0; c < kCostComponents; ++c) {
      sheet.text(row, 0, cost_component_label(c));
      const std::vector<double>& values = cost_component(cf, c);
      for (size_t m = 0; m < values.size(); ++m) {
        sheet.number(row, static_cast<lxw_col_t>(source.first_col + m), values[m], formats.money);
      }
      source.component_rows[c].push_back(row++);
    }
    const std::pair<const char*, const std::vector<double>*> rows[] = {
        {"Total", &cf.total}, {"Cumulative", &cf.cumulative}, {"Discounted", &cf.discounted}};
    for (size_t k = 0; k < std::size(rows); ++k) {
      sheet.text(row, 0, rows[k].first);
      for (size_t m = 0; m < rows[k].second->size(); ++m) {
        sheet.number(row, static_cast<lxw_col_t>(source.first_col + m), (*rows[k].second)[m],
                     formats.money);
      }
      if (k == 0) {
        source.total_rows.push_back(row);
        sheet.number(row, source.sum_col, option.total_cost, formats.money);
      }
      if (k == 1) source.cumulative_rows.push_back(row);
      if (k == 2) {
        source.discounted_rows.push_back(row);
        sheet.number(row, source.sum_col, option.npv, formats.money);
      }
      ++row;
    }
    ++row;
  }
  return source;
}

}  // namespace xlsx

namespace {

/// Checks what the sheets rely on, before anything is created.
void check_plan(const Plan& plan, const std::string& path) {
  if (plan.horizon_months < 0) {
    throw ReportError(path, "plan horizon is negative: " + std::to_string(plan.horizon_months));
  }
  // One column per month; Excel stops at 16384 columns.
  if (plan.horizon_months > 12000) {
    throw ReportError(path, "plan horizon too long for one sheet: " +
                                std::to_string(plan.horizon_months) + " months");
  }
  const auto expected = static_cast<size_t>(plan.horizon_months) + 1;
  for (const OptionResult& option : plan.options) {
    const CashFlow& cf = option.cash_flow;
    const std::pair<const char*, const std::vector<double>*> rows[] = {
        {"capex", &cf.capex},
        {"energy", &cf.energy},
        {"maintenance", &cf.maintenance},
        {"rent", &cf.rent},
        {"resale", &cf.resale},
        {"total", &cf.total},
        {"cumulative", &cf.cumulative},
        {"discount_factor", &cf.discount_factor},
        {"discounted", &cf.discounted}};
    for (const auto& [name, values] : rows) {
      if (values->size() != expected) {
        throw ReportError(path, "option " + option.id + ": cash flow row " + name + " has " +
                                    std::to_string(values->size()) + " entries, expected " +
                                    std::to_string(expected) + " (horizon + 1)");
      }
    }
  }
}

struct WorkbookDeleter {
  void operator()(lxw_workbook* workbook) const { lxw_workbook_free(workbook); }
};

void build_workbook(const Plan& plan, const ResolvedScenario& scenario, const std::string& file,
                    const lxw_datetime& as_of, const WorkbookOptions& options) {
  std::unique_ptr<lxw_workbook, WorkbookDeleter> owned(workbook_new(file.c_str()));
  if (!owned) throw XlsxError("cannot create the workbook");
  lxw_workbook* workbook = owned.get();

  // Fixed properties: the creation date is the as-of date, so same input, same bytes.
  const std::string title = cell_text("TCO: " + scenario.name);
  const std::string subject = cell_text(scenario.customer);
  const std::string comments = cell_text("Quote " + scenario.quote_id);
  lxw_doc_properties properties{};
  properties.title = const_cast<char*>(title.c_str());
  properties.subject = const_cast<char*>(subject.c_str());
  properties.comments = const_cast<char*>(comments.c_str());
  properties.author = const_cast<char*>("gputco");
  properties.keywords = const_cast<char*>("TCO, GPU, quote");
  properties.created = xlsx::utc_midnight(as_of);
  check_xlsx(workbook_set_properties(workbook, &properties), "setting document properties");

  const auto add_sheet = [&](const char* name) {
    lxw_worksheet* sheet = workbook_add_worksheet(workbook, name);
    if (sheet == nullptr) throw XlsxError(std::string("cannot add sheet ") + name);
    return SheetWriter(sheet, name);
  };
  const bool quote = options.quote;
  const Sensitivity* sensitivity = quote ? nullptr : options.sensitivity;
  // Tabs in reading order: the customer's pages, the model, the evidence, the checks.
  SheetWriter cover = add_sheet(kCoverSheet);
  SheetWriter summary = add_sheet(kSummarySheet);
  std::optional<SheetWriter> inputs, timeline, cash_flow, metrics, profit_and_loss,
      sensitivity_sheet, crossover, hardware, checks, chart_data, assumptions;
  if (!quote) {
    inputs = add_sheet(kInputsSheet);
    timeline = add_sheet(kTimelineSheet);
    cash_flow = add_sheet(kCashFlowSheet);
    metrics = add_sheet(kMetricsSheet);
    profit_and_loss = add_sheet(kProfitAndLossSheet);
    if (sensitivity != nullptr) {
      sensitivity_sheet = add_sheet(kSensitivitySheet);
      crossover = add_sheet(kCrossoverSheet);
    }
    hardware = add_sheet(kHardwareSheet);
  } else {
    assumptions = add_sheet(kAssumptionsSheet);
  }
  SheetWriter sources = add_sheet(kSourcesSheet);
  if (!quote) {
    checks = add_sheet(kChecksSheet);
  } else {
    chart_data = add_sheet(kChartDataSheet);
  }

  const xlsx::Formats formats = xlsx::make_formats(workbook, plan.currency);
  xlsx::InputNames names;
  xlsx::CashFlowLayout layout;
  xlsx::TimelineLayout timeline_layout;
  xlsx::CumulativeSource source;
  xlsx::MetricsLayout metrics_layout;
  xlsx::ProfitAndLossLayout profit_and_loss_layout;
  if (!quote) {
    names = xlsx::write_inputs_sheet(workbook, *inputs, formats, plan, scenario);
    xlsx::add_input_validation(workbook, *inputs, names, plan.horizon_months);
    timeline_layout = xlsx::write_timeline_sheet(workbook, *timeline, formats, plan, scenario,
                                                 names, xlsx::CashFlowLayout{}.first_month_col);
    layout = xlsx::write_cash_flow_sheet(workbook, *cash_flow, formats, plan, scenario, names,
                                         &timeline_layout);
    source = xlsx::cash_flow_source(layout);
    metrics_layout = xlsx::write_metrics_sheet(*metrics, formats, plan, scenario, names, layout);
    profit_and_loss_layout =
        xlsx::write_profit_and_loss_sheet(*profit_and_loss, formats, plan, scenario, names, layout);
    // The after-tax rows read the Profit and loss sheet's tax per year (issue #40).
    xlsx::write_cash_flow_tax_rows(*cash_flow, formats, plan, names, layout,
                                   profit_and_loss_layout);
  } else {
    source = xlsx::write_chart_data_sheet(*chart_data, formats, plan, scenario);
    worksheet_hide(chart_data->raw());
  }
  const xlsx::SummaryLayout summary_layout =
      xlsx::write_summary_sheet(workbook, summary, formats, plan, scenario, source,
                                quote ? nullptr : &metrics_layout, quote ? nullptr : &names);
  const xlsx::SourcesLayout sources_layout = xlsx::write_sources_sheet(
      workbook, sources, formats, plan, scenario, quote ? nullptr : &names, !quote);
  xlsx::SensitivityLayout sensitivity_layout;
  if (sensitivity != nullptr) {
    sensitivity_layout = xlsx::write_sensitivity_sheet(workbook, *sensitivity_sheet, formats, plan,
                                                       scenario, *sensitivity, layout);
    xlsx::write_crossover_sheet(workbook, *crossover, formats, plan, scenario, *sensitivity, names);
  }
  if (hardware) xlsx::write_hardware_sheet(*hardware, formats, plan, scenario, &names, &layout);
  if (assumptions) xlsx::write_assumptions_sheet(*assumptions, formats, plan, scenario);

  xlsx::CheckInputs check_inputs;
  if (!quote) {
    check_inputs.cash_flow = &layout;
    check_inputs.timeline = &timeline_layout;
    check_inputs.summary = &summary_layout;
    check_inputs.sources = &sources_layout;
    check_inputs.sensitivity = sensitivity;
    check_inputs.sensitivity_layout = &sensitivity_layout;
    check_inputs.metrics = &metrics_layout;
    check_inputs.profit_and_loss = &profit_and_loss_layout;
  }
  const xlsx::ChecksLayout checks_layout = xlsx::write_checks_sheet(
      workbook, checks ? &*checks : nullptr, formats, plan, scenario, names, check_inputs);
  xlsx::CoverStatus status;
  status.checks_pass = checks_layout.all_pass;
  if (!quote) {
    status.master_check_cell =
        sheet_cell_ref(kChecksSheet, checks_layout.master_row, checks_layout.result_col);
    status.recommendation_now =
        sheet_cell_ref(kMetricsSheet, metrics_layout.recommendation_row, metrics_layout.value_col);
    status.recommendation_written = sheet_cell_ref(kMetricsSheet, metrics_layout.recommendation_row,
                                                   metrics_layout.written_col);
    if (checks_layout.inputs_changed_row != 0) {
      status.inputs_changed_cell =
          sheet_cell_ref(kChecksSheet, checks_layout.inputs_changed_row, checks_layout.result_col);
    }
    if (checks_layout.estimates_row != 0) {
      status.estimates_cell =
          sheet_cell_ref(kChecksSheet, checks_layout.estimates_row, checks_layout.result_col);
    }
  }
  xlsx::write_cover_sheet(workbook, cover, formats, plan, scenario, summary_layout, sources_layout,
                          status);

  // Page setup last, over every sheet (also those whose writers set their own).
  const xlsx::PrintSetup setup = xlsx::print_setup(scenario);
  xlsx::apply_print_setup(cover, setup, false);
  for (SheetWriter* sheet : {&summary, &sources}) xlsx::apply_print_setup(*sheet, setup, true);
  if (assumptions) xlsx::apply_print_setup(*assumptions, setup, true);
  for (auto* sheet : {&inputs, &timeline, &cash_flow, &metrics, &profit_and_loss,
                      &sensitivity_sheet, &crossover, &hardware, &checks}) {
    if (*sheet) xlsx::apply_print_setup(**sheet, setup, true);
  }
  // A timeline squeezed onto one page wide is unreadable beyond a year or so: nine months
  // (15-character columns) per landscape page beside the repeated label columns (print
  // titles) print at 70 % or more on A4 and Letter.
  constexpr int kMonthsPerPage = 9;
  const auto pages_wide =
      static_cast<uint16_t>(std::max(1, (plan.horizon_months + kMonthsPerPage) / kMonthsPerPage));
  for (auto* sheet : {&timeline, &cash_flow, &metrics}) {
    if (*sheet) worksheet_fit_to_pages((*sheet)->raw(), pages_wide, 0);
  }
  if (profit_and_loss) {
    worksheet_fit_to_pages(profit_and_loss->raw(), profit_and_loss_layout.pages_wide, 0);
  }
  // Last: the Inputs cells some formula reads become yellow (inputs); the others stay white.
  if (inputs) xlsx::finish_inputs_sheet(*inputs, formats, names);
  worksheet_activate(cover.raw());

  // workbook_close writes the file and frees the workbook whatever happens.
  const lxw_error closed = workbook_close(owned.release());
  check_xlsx(closed, "writing the workbook file");
}

}  // namespace

StagedFile stage_workbook(const Plan& plan, const ResolvedScenario& scenario,
                          const std::string& path, const WorkbookOptions& options) {
  check_plan(plan, path);
  const auto as_of = xlsx::parse_iso_date(scenario.as_of);
  if (!as_of) {
    throw ReportError(path, "scenario as_of date is not YYYY-MM-DD: '" + scenario.as_of + "'");
  }
  return StagedFile(path, [&](const std::string& temp_path) {
    // In a child process: libxlsxwriter crashes on some failed allocations (see
    // child_process.hpp); the StagedFile removes the temporary file whatever the child did.
    run_in_child_process(path, "the workbook writer (libxlsxwriter)", [&] {
      try {
        build_workbook(plan, scenario, temp_path, *as_of, options);
      } catch (const XlsxError& e) {
        throw ReportError(path, e.what());
      }
    });
  });
}

void write_workbook(const Plan& plan, const ResolvedScenario& scenario, const std::string& path,
                    const WorkbookOptions& options) {
  stage_workbook(plan, scenario, path, options).commit();
}

}  // namespace gputco
