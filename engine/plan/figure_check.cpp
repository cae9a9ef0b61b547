#include "engine/plan/figure_check.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace gputco {

namespace {

[[noreturn]] void fail(const std::string& where, double value) {
  std::ostringstream message;
  message << where << " is " << value
          << " (not a finite number); no report is written: please report the scenario";
  throw FigureError(message.str());
}

void check(const std::string& where, double value) {
  if (!std::isfinite(value)) fail(where, value);
}

void check_row(const std::string& where, const std::vector<double>& row, const char* index) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (!std::isfinite(row[i])) fail(where + ", " + index + " " + std::to_string(i), row[i]);
  }
}

// The same checks with the figure's name in two parts, joined only for the message (issue #19:
// a sweep checks 60 figures of every option at each of its values, and each name was a new
// string).
void check(const std::string& at, const char* name, double value) {
  if (!std::isfinite(value)) fail(at + name, value);
}

void check(const std::string& at, const char* name, const std::optional<double>& value) {
  if (value) check(at, name, *value);
}

void check_row(const std::string& at, const char* name, const std::vector<double>& row,
               const char* index) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (!std::isfinite(row[i])) fail(at + name + ", " + index + " " + std::to_string(i), row[i]);
  }
}

void check_option(const OptionResult& o) {
  const std::string at = "option " + o.id + ": ";
  const std::pair<const char*, double> scalars[] = {
      {"fit: weights (GiB)", o.fit.memory.weights_gib},
      {"fit: KV cache (GiB)", o.fit.memory.kv_cache_gib},
      {"fit: overhead (GiB)", o.fit.memory.overhead_gib},
      {"fit: total memory (GiB)", o.fit.memory.total_gib},
      {"fit: usable memory (GiB)", o.fit.usable_gib},
      {"fit: headroom (GiB)", o.fit.headroom_gib},
      {"speed: bytes per token (GB)", o.speed.bytes_per_token_gb},
      {"speed: decode tokens/s", o.speed.decode_tokens_per_s},
      {"speed: aggregate tokens/s", o.speed.aggregate_tokens_per_s},
      {"speed: prefill tokens/s", o.speed.prefill_tokens_per_s},
      {"speed: time to first token (s)", o.speed.time_to_first_token_s},
      {"power at load (W)", o.power_at_load_w},
      {"hours per month", o.hours_per_month},
      {"kWh per month at full load", o.energy_kwh_per_month},
      {"tokens per month", o.tokens_per_month},
      {"total cost", o.total_cost},
      {"NPV", o.npv},
      {"cost per year", o.cost_per_year}};
  for (const auto& [name, value] : scalars) check(at, name, value);
  const std::pair<const char*, const std::optional<double>*> optionals[] = {
      {"break-even hours", &o.break_even_hours},
      {"cost per million tokens", &o.cost_per_million_tokens},
      {"payback (months)", &o.payback_months},
      {"IRR", &o.irr},
      {"break-even hours per day", &o.break_even_hours_per_day},
      {"cost per user per month", &o.cost_per_user_per_month},
      {"break-even tokens per day", &o.break_even_tokens_per_day},
      {"peak tokens per minute", &o.peak_tokens_per_minute},
      {"peak requests per minute", &o.peak_requests_per_minute},
      {"kWh over the horizon", &o.energy_kwh_total},
      {"grid g CO2e/kWh", &o.grid_g_co2e_per_kwh},
      {"kg CO2e over the horizon", &o.co2e_kg_total},
      {"kg CO2e per million tokens", &o.co2e_kg_per_million_tokens}};
  for (const auto& [name, value] : optionals) check(at, name, *value);
  check_row(at, "annual costs", o.annual_costs, "year index");
  if (o.after_tax) {
    check(at, "after-tax total cost", o.after_tax->total_cost);
    check(at, "after-tax NPV", o.after_tax->npv);
    check_row(at, "tax by year", o.after_tax->tax_by_year, "year index");
    check_row(at, "after-tax cash flow", o.after_tax->total, "month");
  }
  const std::string row_at = at + "cash flow row ";
  for (const auto& [name, row] : named_cash_flow_rows(o.cash_flow)) {
    check_row(row_at, name, *row, "month");
  }
}

}  // namespace

void check_finite_figures(const Plan& plan) {
  const Timeline& t = plan.timeline;
  const std::pair<const char*, const std::vector<double>*> rows[] = {
      {"hours in month", &t.hours_in_month}, {"days of use", &t.days_of_use},
      {"hours of use", &t.hours_of_use},     {"growth factor", &t.growth_factor},
      {"rent trend", &t.rent_factor},        {"tariff trend", &t.tariff_factor},
      {"API price trend", &t.api_factor}};
  for (const auto& [name, row] : rows) check_row(std::string("timeline: ") + name, *row, "month");
  for (const OptionResult& option : plan.options) check_option(option);
}

void check_finite_figures(const RiskResult& risk) {
  check("Monte Carlo: probability that buying beats renting", risk.probability_buy_beats_rent);
  check("Monte Carlo: P10 of the NPV difference", risk.p10_difference);
  check("Monte Carlo: P50 of the NPV difference", risk.p50_difference);
  check("Monte Carlo: P90 of the NPV difference", risk.p90_difference);
  for (const auto& o : risk.options) {
    check("Monte Carlo: option " + o.id + ": P10 of total cost", o.p10_total_cost);
    check("Monte Carlo: option " + o.id + ": P50 of total cost", o.p50_total_cost);
    check("Monte Carlo: option " + o.id + ": P90 of total cost", o.p90_total_cost);
  }
}

void check_finite_figures(const Sensitivity& sensitivity) {
  check("sensitivity: base NPV difference", sensitivity.base_difference);
  for (const TornadoBar& bar : sensitivity.tornado) {
    const std::string at = "tornado bar " + bar.input + ": ";
    check(at + "low value", bar.low_value);
    check(at + "high value", bar.high_value);
    check(at + "difference at the low value", bar.difference_low);
    check(at + "difference at the high value", bar.difference_high);
  }
  for (const SweepPoint& point : sensitivity.utilization_sweep) {
    check("utilization sweep: hours per day", point.hours_per_day);
    check_row("utilization sweep at " + std::to_string(point.hours_per_day) + " h/day: total cost",
              point.total_cost, "option");
  }
  if (sensitivity.risk) check_finite_figures(*sensitivity.risk);
}

}  // namespace gputco
