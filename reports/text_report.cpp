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

/// The option's variant of its kind, for the second table.
std::string variant_text(const OptionInputs& o) {
  switch (o.kind) {
    case OptionKind::buy: {
      std::string v = o.blend ? "blend" : to_string(o.condition);
      if (o.hosting == Hosting::colocation) v += " colo";
      if (o.financing != Financing::cash) v += " " + to_string(o.financing);
      return v;
    }
    case OptionKind::rent_hourly:
      return to_string(o.term);
    case OptionKind::rent_monthly:
      return "monthly";
  }
  return "";
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
      "prices as of {}, {} months from {}, discount rate {:.1f} %/year, amounts in {}, "
      "hours per month: {}\n\n",
      in.model.id, in.quant.id, in.workload.context_tokens, in.workload.concurrent_streams,
      in.workload.hours_per_day, in.workload.days_per_month, s.as_of, plan.horizon_months, s.start,
      in.finance.discount_rate_per_year * 100, plan.currency,
      to_string(in.workload.hours_per_month_convention));

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
  out += fmt::format("{:<16} {:<22} {:>12} {:>10} {:>9} {:>12} {:>14}\n", "option", "variant",
                     "per year", "payback", "IRR", "b-e h/day", "per user/month");
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    const auto& o = in.options[i];
    const bool compared =
        r.kind == OptionKind::buy && r.feasible && !plan.baseline_option_id.empty();
    const auto or_never = [&](const std::optional<double>& x, const char* format) {
      if (!compared) return std::string("n/a");
      return x ? fmt::format(fmt::runtime(format), *x) : std::string("never");
    };
    const std::string irr = !compared ? "n/a"
                            : r.irr   ? fmt::format("{:.1f} %", *r.irr * 100)
                                      : std::string("n/a");
    const std::string per_user =
        r.cost_per_user_per_month ? fmt::format("{:.2f}", *r.cost_per_user_per_month) : "n/a";
    out += fmt::format("{:<16} {:<22} {:>12} {:>10} {:>9} {:>12} {:>14}\n", r.id, variant_text(o),
                       money(r.cost_per_year), or_never(r.payback_months, "{:.1f} mo"), irr,
                       or_never(r.break_even_hours_per_day, "{:.2f}"), per_user);
  }
  out += "\n";
  for (const auto& r : plan.options) {
    for (const auto& e : r.events) out += fmt::format("  {} month {}: {}\n", r.id, e.month, e.what);
  }
  if (in.finance.vat_rate > 0) {
    out += in.finance.vat_reclaimable
               ? fmt::format("Amounts exclude VAT ({:.1f} %, reclaimable).\n",
                             in.finance.vat_rate * 100)
               : fmt::format("VAT ({:.1f} %, not reclaimable) is counted as a cost.\n",
                             in.finance.vat_rate * 100);
  }
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
