#include "engine/plan/plan_comparison.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/finance/finance.hpp"
#include "engine/money/metrics.hpp"

namespace gputco {

namespace {

/// The rental baseline: the named one, else the feasible on-demand hourly rental that costs
/// the least per hour of use; nullopt when there is none.
std::optional<size_t> choose_baseline(const PlanInputs& in, const Plan& plan) {
  std::optional<size_t> baseline;
  for (size_t i = 0; i < in.options.size(); ++i) {
    const auto& o = in.options[i];
    if (o.kind != OptionKind::rent_hourly || !plan.options[i].feasible) continue;
    if (!in.baseline_option_id.empty()) {
      if (o.id == in.baseline_option_id) baseline = i;
      continue;
    }
    if (!plan.options[i].excluded_reason.empty()) continue;  // not an alternative to compare with
    if (o.term != RentTerm::on_demand) continue;
    const double per_hour = o.rate_per_gpu_hour * o.count;
    if (!baseline ||
        per_hour < in.options[*baseline].rate_per_gpu_hour * in.options[*baseline].count) {
      baseline = i;
    }
  }
  GPUTCO_REQUIRE(in.baseline_option_id.empty() || baseline,
                 "baseline " << in.baseline_option_id
                             << " is not a feasible rent_hourly option of the scenario");
  return baseline;
}

/// Break-even month and hours of owned option `i` against the baseline's cash flow `rented`.
void break_even_figures(const PlanInputs& in, size_t i, size_t baseline, double days_of_use_total,
                        const CashFlow& rented, OptionResult& r) {
  r.break_even_month = break_even_month(r.cash_flow, rented);
  r.ahead_then_behind = ahead_then_behind(r.cash_flow, rented);
  r.break_even_hours_per_day = break_even_hours_per_day(in.options[i], in.options[baseline],
                                                        in.workload, in.site, in.finance);
  // Hours of use over the horizon at the break-even utilization (DOMAIN E2's hours when
  // nothing but the purchase and the rent counts). A break-even at 0 h/day (owning no dearer
  // even unused) is no number of hours: owning is cheaper at any use.
  if (r.break_even_hours_per_day && *r.break_even_hours_per_day <= 0) {
    r.owning_cheaper_at_any_use = true;
    r.break_even_hours_per_day.reset();
  }
  if (r.break_even_hours_per_day) {
    r.break_even_hours = *r.break_even_hours_per_day * days_of_use_total;
  }
}

/// Why payback and IRR do not apply to owned option `i` ("" when they do).
std::string comparison_na_reason(const PlanInputs& in, size_t i, const Plan& plan,
                                 const CashFlow& rented, double rented_total,
                                 const std::vector<double>& saving, OptionResult& r) {
  bool ever_dearer = false;
  for (size_t m = 0; m < saving.size(); ++m) {
    const double tolerance = kComparisonTolerance * std::max(1.0, std::abs(rented.cumulative[m]));
    ever_dearer = ever_dearer || r.cash_flow.cumulative[m] > rented.cumulative[m] + tolerance;
  }
  r.never_dearer_than_baseline = !ever_dearer;
  if (!(std::abs(rented_total) > kComparisonTolerance)) {
    return "the baseline " + plan.baseline_option_id +
           " costs nothing (no hours of use): there is no saving to pay back an investment with";
  }
  if (!ever_dearer) {
    return "owning never costs more than " + plan.baseline_option_id +
           " (cumulative): nothing to break even or pay back";
  }
  if (!has_initial_outlay(saving)) {
    const Financing financing = in.options[i].financing;
    return std::string("no initial outlay (") +
           (financing == Financing::lease ? "a lease"
            : financing == Financing::loan
                ? "a loan without down payment"
                : "nothing paid up front beyond " + plan.baseline_option_id) +
           "): nothing invested to pay back; compare the totals and NPV";
  }
  return "";
}

/// Payback and IRR of owning against the baseline, from the monthly `saving`.
void payback_and_irr(const std::vector<double>& saving, OptionResult& r) {
  r.payback_months = payback_months(saving);
  // Norstrom: a running sum that turns positive once has one root above 0, whatever the
  // months do (a refresh, a resale); search there, below 0 other roots may lie.
  const bool by_running_sum = r.saving_sign_changes > 1;
  if (!irr_is_unique(r.saving_sign_changes, r.cumulative_saving_sign_changes)) {
    // Descartes' rule of signs: as many rates as sign changes (less an even number) zero the
    // saving's NPV; the lowest of them (a -100 % at 600 months) means nothing.
    const std::string why =
        "several rates or none zero the saving's NPV (Descartes' rule of signs), and the "
        "cumulative saving changes sign " +
        std::to_string(r.cumulative_saving_sign_changes) +
        " times, not once (Norstrom's criterion), so the IRR is not unique; compare the totals "
        "and NPV";
    r.irr_na_reason =
        "the saving changes sign " + std::to_string(r.saving_sign_changes) + " times: " + why;
    r.warnings.push_back("IRR " + irr_not_unique_text(r.saving_sign_changes) + ": " + why);
  } else if (const auto monthly =
                 internal_rate_of_return(saving, by_running_sum ? 0.0 : kLowestIrrSearched)) {
    r.irr = annual_from_monthly(*monthly);
  } else {
    r.irr_na_reason = r.saving_sign_changes == 0
                          ? "the saving never changes sign: no rate zeroes its NPV"
                          : "no rate from -99 % to +1000 % a month zeroes the saving's NPV";
  }
}

/// The unique IRR of a monthly `saving` against the baseline `rented`, annualised, as
/// payback_and_irr finds it (Descartes' rule and Norstrom's criterion); nullopt with the reason
/// in `why_not` when there is no initial outlay, no unique rate or no root.
std::optional<double> unique_irr(const std::vector<double>& saving, const CashFlow& rented,
                                 std::string& why_not) {
  if (!has_initial_outlay(saving)) {
    why_not = "no initial outlay: nothing invested to pay back";
    return std::nullopt;
  }
  const int changes = saving_sign_changes(saving, rented.total);
  if (!irr_is_unique(changes, cumulative_saving_sign_changes(saving, rented.cumulative))) {
    why_not = "the saving changes sign " + std::to_string(changes) + " times: no unique rate";
    return std::nullopt;
  }
  if (const auto monthly =
          internal_rate_of_return(saving, changes > 1 ? 0.0 : kLowestIrrSearched)) {
    return annual_from_monthly(*monthly);
  }
  why_not = changes == 0 ? "the saving never changes sign: no rate zeroes its NPV"
                         : "no rate from -99 % to +1000 % a month zeroes the saving's NPV";
  return std::nullopt;
}

/// What the IRR of owned option `r` is the return on, and for a loan the project IRR beside
/// the equity IRR (issue #40): the saving with the loan's flows (proceeds, instalments, the
/// balance at the horizon) taken out, the hardware as if bought for cash.
void project_and_equity_irr(const OptionInputs& o, const CashFlow& rented,
                            const std::vector<double>& saving, OptionResult& r) {
  // A lease has no outlay of ours (its IRR is n/a): no basis.
  r.irr_basis = o.financing == Financing::cash   ? "project"
                : o.financing == Financing::loan ? "equity"
                                                 : "";
  if (o.financing != Financing::loan) return;
  std::vector<double> project(saving.size());
  for (size_t m = 0; m < saving.size(); ++m) {
    project[m] = saving[m] + (m < r.cash_flow.financing.size() ? r.cash_flow.financing[m] : 0.0);
  }
  r.project_irr = unique_irr(project, rented, r.project_irr_na_reason);
}

/// Every comparison of owned option `i` with the baseline.
void compare_owned(const PlanInputs& in, size_t i, size_t baseline, double days_of_use_total,
                   Plan& plan) {
  const CashFlow& rented = plan.options[baseline].cash_flow;
  auto& r = plan.options[i];
  break_even_figures(in, i, baseline, days_of_use_total, rented, r);
  std::vector<double> saving(rented.total.size());
  for (size_t m = 0; m < saving.size(); ++m) saving[m] = rented.total[m] - r.cash_flow.total[m];
  r.comparison_na_reason =
      comparison_na_reason(in, i, plan, rented, plan.options[baseline].total_cost, saving, r);
  r.saving_sign_changes = saving_sign_changes(saving, rented.total);
  r.cumulative_saving_sign_changes = cumulative_saving_sign_changes(saving, rented.cumulative);
  project_and_equity_irr(in.options[i], rented, saving, r);
  if (r.comparison_na_reason.empty()) {
    payback_and_irr(saving, r);
  } else {
    r.irr_na_reason = r.comparison_na_reason;
    r.warnings.push_back("payback and IRR n/a: " + r.comparison_na_reason);
  }
  if (r.ahead_then_behind) {
    const MonthSpan& ahead = *r.ahead_then_behind;
    r.warnings.push_back(
        "break-even month never (ahead months " + std::to_string(ahead.first) + "-" +
        std::to_string(ahead.last) + ", behind from " + std::to_string(ahead.last + 1) +
        "): the cumulative cost of owning was at or below " + plan.baseline_option_id +
        "'s in months " + std::to_string(ahead.first) + "-" + std::to_string(ahead.last) +
        " and is above it from month " + std::to_string(ahead.last + 1) + " to the end (" +
        std::to_string(rented.cumulative.size() - 1) + ")");
  }
  r.note = "break-even against " + plan.baseline_option_id;
}

}  // namespace

void compare_with_baseline(const PlanInputs& in, double days_of_use_total, Plan& plan) {
  const std::optional<size_t> baseline = choose_baseline(in, plan);
  if (!baseline) return;
  plan.baseline_option_id = in.options[*baseline].id;
  for (size_t i = 0; i < in.options.size(); ++i) {
    if (in.options[i].kind != OptionKind::buy || !plan.options[i].feasible) continue;
    compare_owned(in, i, *baseline, days_of_use_total, plan);
  }
}

void compare_with_api(const PlanInputs& in, Plan& plan) {
  // Break-even volume against the cheapest candidate api option (by total cost).
  std::optional<size_t> api_reference;
  for (size_t i = 0; i < in.options.size(); ++i) {
    if (in.options[i].kind != OptionKind::api || !is_candidate(plan.options[i])) continue;
    if (!api_reference || plan.options[i].total_cost < plan.options[*api_reference].total_cost) {
      api_reference = i;
    }
  }
  if (!api_reference) return;
  plan.api_reference_option_id = in.options[*api_reference].id;
  for (size_t i = 0; i < in.options.size(); ++i) {
    if (in.options[i].kind == OptionKind::api || !plan.options[i].feasible) continue;
    plan.options[i].break_even_tokens_per_day = break_even_tokens_per_day(
        in.options[i], in.options[*api_reference], in.workload, in.site, in.finance);
  }
}

void recommend(const PlanInputs& in, Plan& plan) {
  // The candidate option (feasible, not excluded) with the lowest NPV of cost; ties keep
  // file order.
  // With a tax rate, on the after-tax NPV; the pre-tax choice is kept beside it.
  const bool taxed = in.finance.tax_rate.has_value();
  plan.tax_rate = in.finance.tax_rate;
  const auto ranked_npv = [&](const OptionResult& r) {
    return taxed && r.after_tax ? r.after_tax->npv : r.npv;
  };
  std::optional<size_t> best, best_pre_tax;
  std::string excluded;   // the feasible options a constraint excludes, for the reason
  bool any_fits = false;  // some option holds the weights but cannot serve the demand
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& r = plan.options[i];
    any_fits = any_fits || !in.options[i].unservable_reason.empty();
    if (r.feasible && !is_candidate(r)) excluded += (excluded.empty() ? "" : ", ") + r.id;
    if (!is_candidate(r)) continue;
    if (!best || ranked_npv(r) < ranked_npv(plan.options[*best])) best = i;
    if (!best_pre_tax || r.npv < plan.options[*best_pre_tax].npv) best_pre_tax = i;
  }
  if (taxed && best_pre_tax) plan.pre_tax_recommendation = plan.options[*best_pre_tax].id;
  if (best) {
    plan.recommendation = plan.options[*best].id;
    const std::string npv = taxed ? "lowest after-tax NPV of cost" : "lowest NPV of cost";
    plan.recommendation_reason = npv + (any_fits ? " among the options that can serve the demand"
                                                 : " among the options that hold the model");
    if (taxed && best_pre_tax && *best_pre_tax != *best) {
      plan.recommendation_reason +=
          "; pre-tax, " + plan.options[*best_pre_tax].id + " has the lowest NPV";
    }
    const OptionResult& chosen = plan.options[*best];
    if (chosen.power_unknown && chosen.kind == OptionKind::buy) {
      plan.recommendation_reason += "; its energy cost is not included: the board power of " +
                                    in.options[*best].device.id + " is unknown";
    }
  } else if (any_fits) {
    plan.recommendation_reason =
        excluded.empty() ? "nothing recommended: no option can serve the demand (each says why)"
                         : "nothing recommended: no allowed option can serve the demand";
  } else {
    plan.recommendation_reason =
        excluded.empty() ? "no option holds the model" : "no allowed option holds the model";
  }
  if (!excluded.empty()) plan.recommendation_reason += "; excluded by constraints: " + excluded;
}

}  // namespace gputco
