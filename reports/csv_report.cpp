#include "reports/csv_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

#include "pricing/csv_table.hpp"

namespace gputco {
namespace {

// Every cell below is a field as written: numbers we format (csv_number_field: "-1020" stays a
// number), text through csv_text_field (an option id "-A1" or a note "=1+1" is not run as a
// formula by the spreadsheet that opens the file).

/// The shortest text that reads back to `value` (std::to_chars: no locale); "" if not finite.
std::string number(double value) {
  if (!std::isfinite(value)) return "";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return csv_number_field(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
}

std::string number(const std::optional<double>& value) {
  return value ? number(*value) : std::string();
}

std::string whole(long long value) {
  return csv_number_field(std::to_string(value));
}

std::string text(std::string_view value) {
  return csv_text_field(value);
}

void line(std::string& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += fields[i];
  }
  out += "\r\n";
}

}  // namespace

std::string plan_csv(const Plan& plan, const ResolvedScenario& scenario) {
  size_t years = 0;
  for (const auto& option : plan.options) years = std::max(years, option.annual_costs.size());
  std::vector<std::string> header = {"option",
                                     "kind",
                                     "gpu",
                                     "count",
                                     "fit",
                                     "feasible",
                                     "decode_tokens_per_s",
                                     "aggregate_tokens_per_s",
                                     "currency",
                                     "total_cost",
                                     "npv"};
  for (size_t y = 1; y <= years; ++y) header.push_back("year_" + std::to_string(y));
  for (const char* name :
       {"break_even_hours", "break_even_month", "cost_per_million_tokens",
        "break_even_tokens_per_day", "energy_kwh", "co2e_kg", "co2e_kg_per_million_tokens",
        "grid_g_co2e_per_kwh", "recommended", "note"}) {
    header.emplace_back(name);
  }
  for (std::string& name : header) name = text(name);
  std::string out;
  line(out, header);
  for (const OptionResult& option : plan.options) {
    const OptionInputs* inputs = nullptr;
    for (const auto& o : scenario.plan_inputs.options) {
      if (o.id == option.id) inputs = &o;
    }
    // An API is hosted: no fit verdict of its own, no decode speed (empty, not 0).
    const bool api = option.kind == OptionKind::api;
    std::vector<std::string> fields = {
        text(option.id), text(to_string(option.kind)),
        text(inputs == nullptr                ? ""
             : option.kind == OptionKind::api ? inputs->api_model
                                              : inputs->device.id),
        inputs != nullptr ? whole(inputs->count) : "",
        text(api ? "hosted" : to_string(option.fit.verdict)), option.feasible ? "true" : "false",
        option.feasible && !api ? number(option.speed.decode_tokens_per_s) : "",
        option.feasible && !api ? number(option.speed.aggregate_tokens_per_s) : "",
        text(plan.currency),
        // Never priced: an option that cannot serve the demand has no cost (empty fields).
        option.feasible ? number(option.total_cost) : "",
        option.feasible ? number(option.npv) : ""};
    for (size_t y = 0; y < years; ++y) {
      fields.push_back(
          option.feasible && y < option.annual_costs.size() ? number(option.annual_costs[y]) : "");
    }
    // The break-even columns: a number, else the terminal's word, so that "always" (owning
    // no dearer at any use), "never" and "n/a" (not compared) stay apart.
    const bool compared =
        option.kind == OptionKind::buy && option.feasible && !plan.baseline_option_id.empty();
    fields.push_back(!compared                          ? text("n/a")
                     : option.owning_cheaper_at_any_use ? text("always")
                     : option.break_even_hours          ? number(option.break_even_hours)
                                                        : text("never"));
    fields.push_back(!compared                           ? text("n/a")
                     : option.break_even_month           ? whole(*option.break_even_month)
                     : option.never_dearer_than_baseline ? text("n/a")
                                                         : text("never"));
    fields.push_back(number(option.cost_per_million_tokens));
    const bool against_api = !plan.api_reference_option_id.empty() && !api && option.feasible;
    fields.push_back(!against_api                       ? text("n/a")
                     : option.break_even_tokens_per_day ? number(option.break_even_tokens_per_day)
                                                        : text("never"));
    // Unknown energy or CO2e is an empty field, never 0.
    fields.push_back(number(option.energy_kwh_total));
    fields.push_back(number(option.co2e_kg_total));
    fields.push_back(number(option.co2e_kg_per_million_tokens));
    fields.push_back(number(option.grid_g_co2e_per_kwh));
    fields.push_back(plan.recommendation && *plan.recommendation == option.id ? "true" : "false");
    // The note, then what the figures leave out or assume (OptionResult::warnings).
    std::string note = option.note;
    for (const auto& w : option.warnings) note += (note.empty() ? "" : "; ") + w;
    fields.push_back(text(note));
    line(out, fields);
  }
  return out;
}

}  // namespace gputco
