#include "reports/text_report.hpp"

#include <fmt/format.h>
#include <cmath>

namespace gputco {

namespace {

std::string money(double x) {
  return std::isfinite(x) ? fmt::format("{:.0f}", x) : "n/a";
}

/// A catalog amount as published: whole units above 100, four significant digits below.
std::string amount_text(double x) {
  if (!std::isfinite(x)) return "n/a";
  return std::abs(x) >= 100 ? fmt::format("{:.0f}", x) : fmt::format("{:.4g}", x);
}

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::fits:
      return "fits";
    case Verdict::tight:
      return "tight";
    case Verdict::does_not_fit:
      return "no fit";
  }
  return "?";
}

}  // namespace

std::string plan_summary_text(const Plan& plan, const ResolvedScenario& s) {
  const auto& in = s.plan_inputs;
  std::string out;
  out += fmt::format("{}\n", s.name);
  if (!s.customer.empty() || !s.quote_id.empty()) {
    out += fmt::format("customer: {}   quote: {}\n", s.customer.empty() ? "-" : s.customer,
                       s.quote_id.empty() ? "-" : s.quote_id);
  }
  out += fmt::format(
      "model {} {}, {} tokens x {} stream(s), {:.1f} h/day x {:.2f} days/month\n"
      "prices as of {}, {} months from {}, discount rate {:.1f} %/year, amounts in {}\n\n",
      in.model.id, in.quant.id, in.workload.context_tokens, in.workload.concurrent_streams,
      in.workload.hours_per_day, in.workload.days_per_month, s.as_of, plan.horizon_months, s.start,
      in.finance.discount_rate_per_year * 100, plan.currency);

  out += fmt::format("{:<16} {:<13} {:<28} {:<7} {:>8} {:>12} {:>12} {:>11} {:>9} {:>10}\n",
                     "option", "kind", "devices", "fit", "tok/s/str", "total cost", "NPV",
                     "break-even", "month", "per 1M tok");
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    const auto& o = in.options[i];
    std::string kind = to_string(r.kind);
    if (r.kind == OptionKind::buy) kind = "buy " + to_string(o.condition);
    const std::string devices = fmt::format("{} x {}", o.count, o.device.id);
    const std::string speed =
        r.feasible ? fmt::format("{:.1f}", r.speed.decode_tokens_per_s) : std::string("-");
    std::string be_hours = "n/a", be_month = "n/a";
    if (r.kind == OptionKind::buy && r.feasible && !plan.baseline_option_id.empty()) {
      be_hours = r.break_even_hours ? fmt::format("{:.0f} h", *r.break_even_hours) : "never";
      be_month = r.break_even_month ? fmt::format("{}", *r.break_even_month) : "never";
    }
    const std::string per_million =
        r.cost_per_million_tokens ? fmt::format("{:.2f}", *r.cost_per_million_tokens) : "n/a";
    out += fmt::format("{:<16} {:<13} {:<28} {:<7} {:>8} {:>12} {:>12} {:>11} {:>9} {:>10}\n", r.id,
                       kind, devices, verdict_text(r.fit.verdict), speed, money(r.total_cost),
                       money(r.npv), be_hours, be_month, per_million);
  }
  out += "\n";
  if (plan.recommendation) {
    out +=
        fmt::format("Recommendation: {} ({}).\n", *plan.recommendation, plan.recommendation_reason);
  } else {
    out += fmt::format("Recommendation: none ({}).\n", plan.recommendation_reason);
  }
  if (!plan.baseline_option_id.empty()) {
    out += fmt::format("Break-even hours and month are against {}.\n", plan.baseline_option_id);
  }
  for (const auto& r : plan.options) {
    if (!r.feasible) out += fmt::format("  {}: {}\n", r.id, r.note);
  }
  bool stale_header = false;
  for (const auto& src : s.sources) {
    if (!src.stale) continue;
    if (!stale_header) {
      out +=
          fmt::format("Stale prices (older than {} days at {}):\n", s.max_price_age_days, s.as_of);
      stale_header = true;
    }
    out += fmt::format("  {}: {} {} observed {} ({} days)\n", src.what, amount_text(src.amount),
                       src.currency, src.observed_on, src.age_days);
  }
  return out;
}

}  // namespace gputco
