#include "reports/text_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "reports/peak_assumption.hpp"
#include "reports/text_after_tax.hpp"
#include "reports/text_table.hpp"

namespace gputco {

namespace {

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
      return o.hourly_billing.billing == Billing::autoscaled && term_months(o.term) == 0
                 ? to_string(o.term) + " autoscaled"
                 : to_string(o.term);
    case OptionKind::rent_monthly:
      return "monthly";
    case OptionKind::api:
      return "per token";
  }
  return "";
}

/// A quantity that may be unknown: "unknown", never 0.
std::string or_unknown(const std::optional<double>& x, const char* format) {
  if (!x || !std::isfinite(*x)) return "unknown";
  return fmt::format(fmt::runtime(format), *x);
}

/// Tokens per day, short: 1.2M, 350k, 900.
std::string tokens_text(double t) {
  if (!std::isfinite(t)) return "n/a";
  if (t >= 1e6) return fmt::format("{:.2f}M", t / 1e6);
  if (t >= 1e4) return fmt::format("{:.0f}k", t / 1e3);
  return fmt::format("{:.0f}", t);
}

}  // namespace

std::string whole_money_text(double amount) {
  return std::isfinite(amount) ? fmt::format("{:.0f}", amount) : "n/a";
}

std::string grouped_money_text(double amount) {
  if (!std::isfinite(amount)) return "n/a";
  // Rounded as a double and printed in full: a conversion to a 64-bit integer overflows from
  // 9.2e18 on (undefined; it printed "-0").
  const double whole = std::round(amount);
  std::string digits = fmt::format("{:.0f}", std::fabs(whole));
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<size_t>(at), ",");
  }
  return (whole < 0 ? "-" : "") + digits;
}

std::string cost_lines_not_entered_text(const Plan& plan) {
  // Each line, in the order the engine lists them, with the options that left it out.
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;
  for (const auto& r : plan.options) {
    for (const std::string& line : r.cost_lines_not_entered) {
      auto it = std::find_if(lines.begin(), lines.end(),
                             [&](const auto& entry) { return entry.first == line; });
      if (it == lines.end()) it = lines.insert(lines.end(), {line, {}});
      it->second.push_back(r.id);
    }
  }
  // Lines left out by the same options share one group.
  std::vector<std::pair<std::vector<std::string>, std::string>> groups;
  for (const auto& [line, ids] : lines) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& group) { return group.first == ids; });
    if (it == groups.end()) {
      groups.push_back({ids, line});
    } else {
      it->second += ", " + line;
    }
  }
  std::string text;
  for (const auto& [ids, names] : groups) {
    std::string who;
    if (ids.size() == plan.options.size() && ids.size() > 1) {
      who = "every option";
    } else {
      for (const auto& id : ids) who += (who.empty() ? "" : ", ") + id;
    }
    text += (text.empty() ? "" : "; ") + names + " (" + who + ")";
  }
  return text;
}

std::string serving_load_text(const OptionResult& r) {
  const PlanServingLoad& l = *r.serving_load;
  const auto hour = [](const ServingAtLoad& a, double replicas) {
    return fmt::format(
        "{:.0f} replica(s) of {:.1f} sequences in flight, {:.1f} tokens/s per user, TPOT p99 "
        "{:.1f} ms, TTFT p99 {:.0f} ms",
        replicas, a.in_flight, a.per_user_tokens_per_s, a.tpot_p99_ms, a.ttft_p99_ms);
  };
  return "peak hour " + hour(l.peak, l.replicas_at_peak) + "; mean hour " +
         hour(l.mean, l.replicas_at_mean);
}

std::string plan_summary_text(const Plan& plan, const ResolvedScenario& s) {
  const auto& in = s.plan_inputs;
  // Options by the name a person reads: the label, else the id.
  const auto name = [&](const std::string& id) -> const std::string& {
    return option_label(s, id);
  };
  // The free texts are one line each: a line break in them is shown, so that no name can
  // print a line of the report ("Recommendation: ...") of its own.
  const auto one_line = [](const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : std::string(1, c);
    return out;
  };
  std::string out;
  out += fmt::format("{}\n", one_line(s.name));
  if (!s.customer.empty() || !s.quote_id.empty()) {
    out +=
        fmt::format("customer: {}   quote: {}\n", s.customer.empty() ? "-" : one_line(s.customer),
                    s.quote_id.empty() ? "-" : one_line(s.quote_id));
  }
  // A demand in requests sizes fleets (issue #43): the requests, not one box's streams.
  // Streams per replica, shown unless they are the default 1 of a demand in requests.
  std::string demand = std::to_string(in.workload.context_tokens) + " tokens";
  if (!in.workload.requests_per_day || in.workload.concurrent_streams != 1) {
    demand += fmt::format(" x {} stream(s)", in.workload.concurrent_streams);
  }
  if (in.workload.requests_per_day) {
    demand += fmt::format(", {:.0f} requests/day", *in.workload.requests_per_day);
  }
  out += fmt::format("model {} {}, {}, {:.1f} h/day x {:.2f} days/month\n", in.model.id,
                     in.quant.id, demand, in.workload.hours_per_day, in.workload.days_per_month);
  out += peak_assumption_text(s) + "\n";
  out += fmt::format(
      "prices as of {}, {} months from {}, discount rate {:.1f} %/year, amounts in {}, "
      "hours per month: {}\n\n",
      s.as_of, plan.horizon_months, s.start, in.finance.discount_rate_per_year * 100, plan.currency,
      to_string(in.workload.hours_per_month_convention));

  // Columns as wide as their longest cell, at least the widths the reports always had: a long
  // option label or API model widens its column instead of pushing the others out of line.
  constexpr auto L = TextAlign::left;
  constexpr auto R = TextAlign::right;
  TextTable options_table({{"option", L, 16},
                           {"kind", L, 13},
                           {"devices", L, 28},
                           {"fit", L, 7},
                           {"tok/s/str", R, 8},
                           {"total cost", R, 12},
                           {"NPV", R, 12},
                           {"break-even", R, 11},
                           {"month", R, 9},
                           {"per 1M tok", R, 10}});
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    const auto& o = in.options[i];
    std::string kind = to_string(r.kind);
    if (r.kind == OptionKind::buy) kind = "buy " + to_string(o.condition);
    const bool api = r.kind == OptionKind::api;
    const std::string devices = api ? o.api_model : fmt::format("{} x {}", o.count, o.device.id);
    const std::string speed =
        r.feasible && !api ? fmt::format("{:.1f}", r.speed.decode_tokens_per_s) : std::string("-");
    std::string be_hours = "n/a", be_month = "n/a";
    if (r.kind == OptionKind::buy && r.feasible && !plan.baseline_option_id.empty()) {
      // Owning cheaper even unused: "always", not a break-even of "0 h".
      be_hours = r.owning_cheaper_at_any_use ? "always"
                 : r.break_even_hours        ? fmt::format("{:.0f} h", *r.break_even_hours)
                                             : "never";
      be_month = r.break_even_month             ? fmt::format("{}", *r.break_even_month)
                 : r.never_dearer_than_baseline ? "n/a"
                                                : "never";
    }
    const std::string per_million =
        r.cost_per_million_tokens ? fmt::format("{:.2f}", *r.cost_per_million_tokens) : "n/a";
    // Never priced: an option that cannot serve the demand has no cost (issue #43).
    const auto money = [&](double x) { return r.feasible ? whole_money_text(x) : "-"; };
    options_table.add_row({name(r.id), kind, devices, api ? "hosted" : verdict_text(r.fit.verdict),
                           speed, money(r.total_cost), money(r.npv), be_hours, be_month,
                           per_million});
  }
  out += options_table.render();
  if (plan.tax_rate) out += after_tax_text(plan, name);
  out += "\n";
  TextTable variants_table({{"option", L, 16},
                            {"variant", L, 22},
                            {"per year", R, 12},
                            {"payback", R, 10},
                            {"IRR", R, 9},
                            {"b-e h/day", R, 12},
                            {"per user/month", R, 14}});
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    const auto& o = in.options[i];
    const bool compared =
        r.kind == OptionKind::buy && r.feasible && !plan.baseline_option_id.empty();
    const auto or_never = [&](const std::optional<double>& x, const char* format) {
      if (!compared) return std::string("n/a");
      return x ? fmt::format(fmt::runtime(format), *x) : std::string("never");
    };
    // Payback: n/a, not "never", without an initial outlay (comparison_na_reason).
    const std::string payback = r.comparison_na_reason.empty()
                                    ? or_never(r.payback_months, "{:.1f} mo")
                                    : std::string("n/a");
    const std::string irr = !compared ? "n/a"
                            : r.irr   ? fmt::format("{:.1f} %", *r.irr * 100)
                                      : std::string("n/a");
    const std::string per_user =
        r.cost_per_user_per_month ? fmt::format("{:.2f}", *r.cost_per_user_per_month) : "n/a";
    variants_table.add_row(
        {name(r.id), variant_text(o),
         r.feasible ? whole_money_text(r.cost_per_year) : std::string("-"), payback, irr,
         compared && r.owning_cheaper_at_any_use ? std::string("always")
                                                 : or_never(r.break_even_hours_per_day, "{:.2f}"),
         per_user});
  }
  out += variants_table.render();
  out += equity_irr_text(plan, name);
  for (const auto& o : in.options) {
    if (o.system_id.empty()) continue;
    out += fmt::format("{} system: {} ({}), {} x {}\n", name(o.id), o.system_id, o.system_name,
                       o.count, o.device.id);
  }
  for (const auto& o : in.options) {
    if (!o.interconnect.empty())
      out += fmt::format("{} interconnect: {}\n", name(o.id), o.interconnect);
  }
  for (const auto& r : plan.options) {
    if (!r.billing.empty()) out += fmt::format("{} billing: {}\n", name(r.id), r.billing);
  }
  for (const auto& r : plan.options) {
    if (!r.layout_note.empty()) out += fmt::format("{} layout: {}\n", name(r.id), r.layout_note);
  }
  for (const auto& r : plan.options) {
    if (!r.serving_note.empty()) out += fmt::format("{} serving: {}\n", name(r.id), r.serving_note);
  }
  for (const auto& r : plan.options) {
    if (r.serving_load) {
      out += fmt::format("{} at the plan's load: {}\n", name(r.id), serving_load_text(r));
    }
  }
  out += "\n";
  // Energy and emissions: kWh a month on average (load + idle, x PUE), t CO2e over the horizon.
  bool any_api = false;
  for (const auto& r : plan.options) any_api = any_api || r.kind == OptionKind::api;
  std::vector<TextColumn> energy_columns{{"option", L, 16},       {"kWh/month", R, 10},
                                         {"idle kWh/mo", R, 11},  {"g/kWh", R, 8},
                                         {"t CO2e total", R, 13}, {"kg/1M tok", R, 10}};
  if (any_api) energy_columns.push_back({"b-e tok/day", R, 14});
  TextTable energy_table(energy_columns);
  for (const auto& r : plan.options) {
    const double months = static_cast<double>(std::max(1, plan.horizon_months));
    std::optional<double> per_month, idle_per_month, tonnes;
    if (r.energy_kwh_total) {
      per_month = *r.energy_kwh_total / months;
      double idle = 0;
      for (double x : r.cash_flow.idle_kwh) idle += x;
      idle_per_month = idle / months;
    }
    if (r.co2e_kg_total) tonnes = *r.co2e_kg_total / 1000.0;
    std::string be = "";
    if (any_api) {
      be = r.kind == OptionKind::api || !r.feasible ? "n/a"
           : r.break_even_tokens_per_day            ? tokens_text(*r.break_even_tokens_per_day)
                                                    : "never";
    }
    std::vector<std::string> cells{
        name(r.id),
        or_unknown(per_month, "{:.0f}"),
        or_unknown(idle_per_month, "{:.0f}"),
        or_unknown(r.grid_g_co2e_per_kwh, "{:.0f}"),
        or_unknown(tonnes, "{:.3f}"),
        // No tokens (no hours of use, or infeasible): nothing to divide by.
        r.cost_per_million_tokens || r.co2e_kg_per_million_tokens
            ? or_unknown(r.co2e_kg_per_million_tokens, "{:.3f}")
            : std::string("n/a"),
    };
    if (any_api) cells.push_back(be);
    energy_table.add_row(std::move(cells));
  }
  out += energy_table.render();
  // A blend's totals include its overflow rental's energy and CO2e (issue #21 H1): its part,
  // at the rental's own intensity, and the owned units'.
  for (const auto& r : plan.options) {
    const auto& split = r.overflow_energy;
    if (!split || !r.energy_kwh_total || !(split->overflow_kwh > 0)) continue;
    const auto tonnes = [](std::optional<double> kg) {
      return kg ? fmt::format("{:.3f} t CO2e", *kg / 1000.0) : std::string("CO2e unknown");
    };
    out += fmt::format(
        "  {}: of which the overflow rented from {}: {:.0f} kWh, {}{} (the owned units: {:.0f} "
        "kWh, {})\n",
        name(r.id), split->option_id, split->overflow_kwh, tonnes(split->overflow_co2e_kg),
        split->overflow_grid_g_co2e_per_kwh
            ? fmt::format(" at {:.0f} g/kWh", *split->overflow_grid_g_co2e_per_kwh)
            : std::string(),
        split->owned_kwh, tonnes(split->owned_co2e_kg));
  }
  for (const auto& r : plan.options) {
    // An option not priced says why once, below (its note).
    if (r.feasible && !r.co2e_kg_total && !r.co2e_unknown_reason.empty()) {
      out += fmt::format("  {}: CO2e {}\n", name(r.id), r.co2e_unknown_reason);
    }
  }
  if (!plan.api_reference_option_id.empty()) {
    out += fmt::format(
        "Break-even volume: output tokens per day of use at which the option costs the same as "
        "{} over the horizon.\n",
        name(plan.api_reference_option_id));
  }
  for (const auto& r : plan.options) {
    if (r.rate_limit_exceeded) out += fmt::format("  {}: {}\n", name(r.id), r.note);
  }
  for (const auto& r : plan.options) {
    for (const auto& w : r.warnings) out += fmt::format("  {}: {}\n", name(r.id), w);
  }
  for (const auto& w : plan.warnings) out += fmt::format("  {}\n", w);
  out += "\n";
  for (const auto& r : plan.options) {
    for (const auto& e : r.events) {
      out += fmt::format("  {} month {}: {}\n", name(r.id), e.month, e.what);
    }
  }
  if (in.finance.vat_rate > 0) {
    out += in.finance.vat_reclaimable
               ? fmt::format("Amounts exclude VAT ({:.1f} %, reclaimable).\n",
                             in.finance.vat_rate * 100)
               : fmt::format("VAT ({:.1f} %, not reclaimable) is counted as a cost.\n",
                             in.finance.vat_rate * 100);
  }
  if (const std::string missing = cost_lines_not_entered_text(plan); !missing.empty()) {
    out += fmt::format("Not entered, counted as 0: {}.\n", missing);
  }
  if (plan.recommendation) {
    out += fmt::format("Recommendation: {} ({}).\n", name(*plan.recommendation),
                       plan.recommendation_reason);
  } else {
    out += fmt::format("Recommendation: none ({}).\n", plan.recommendation_reason);
  }
  for (const auto& r : plan.options) {
    if (r.id != s.proposed_option_id) continue;
    std::string against = "the recommendation";
    for (const auto& best : plan.options) {
      if (!plan.recommendation || best.id != *plan.recommendation || best.id == r.id) continue;
      against = whole_money_text(r.npv - best.npv) + " " + plan.currency +
                " more NPV of cost than the recommendation";
    }
    out += fmt::format("Proposed: {} (the seller's choice; {}).\n", name(r.id), against);
  }
  if (!plan.baseline_option_id.empty()) {
    out +=
        fmt::format("Break-even hours and month are against {}.\n", name(plan.baseline_option_id));
  }
  for (const auto& r : plan.options) {
    if (!r.feasible) out += fmt::format("  {}: {}\n", name(r.id), r.note);
  }
  // Each stale figure once, however many options read it (100 options of one device listed
  // its price 100 times).
  std::set<std::string> stale_lines;
  for (const auto& src : s.sources) {
    if (!src.stale) continue;
    const std::string line =
        fmt::format("  {}: {}{} observed {} ({} days)\n", src.what, amount_text(src.amount),
                    src.currency.empty() ? "" : " " + src.currency, src.observed_on, src.age_days);
    if (!stale_lines.insert(line).second) continue;
    if (stale_lines.size() == 1) {
      out +=
          fmt::format("Stale prices (older than {} days at {}):\n", s.max_price_age_days, s.as_of);
    }
    out += line;
  }
  return out;
}

}  // namespace gputco
