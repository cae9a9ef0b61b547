// The Checks sheet: each check a live TRUE/FALSE formula with what it tests; their AND is
// the master check shown on the Cover. The cached result of each is the same test on the
// engine's figures, so a file that nothing recalculates still tells the truth.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// Workbook name of the relative tolerance of the equality checks.
constexpr const char* kToleranceName = "check_tolerance";
/// Its value: far above floating-point noise (1e-15), far below any real discrepancy.
constexpr double kTolerance = 1e-9;

struct Check {
  std::string name;
  std::string scope;
  std::string formula;  ///< "" when not applicable
  bool value = true;
  std::string description;
  /// A warning, not a model error: shown with its result, left out of the master check.
  bool warning = false;
  /// A status, not TRUE/FALSE: the formula gives a text, "current" as written (cached).
  bool status = false;
};

/// The status a stale-status check shows when nothing changed, and when something did.
constexpr const char* kCurrent = "current";
constexpr const char* kStale = "stale: re-run gputco";

bool near(double actual, double expected) {
  return std::abs(actual - expected) <= kTolerance * std::max(1.0, std::abs(expected));
}

/// "ABS(a-b)<=check_tolerance*MAX(1,ABS(b))": a equals b within the relative tolerance.
std::string near_formula(const std::string& actual, const std::string& expected) {
  return "ABS(" + actual + "-" + expected + ")<=" + kToleranceName + "*MAX(1,ABS(" + expected +
         "))";
}

double sum(const std::vector<double>& values) {
  double total = 0;
  for (double v : values) total += v;
  return total;
}

/// "provider sku" of a Sources row named "provider sku (term)", and its term.
std::pair<std::string, std::string> offer_and_term(const std::string& what) {
  const size_t open = what.rfind(" (");
  if (open == std::string::npos || what.empty() || what.back() != ')') return {what, ""};
  return {what.substr(0, open), what.substr(open + 2, what.size() - open - 3)};
}

/// The cells of option `i` that its checks read on the Cash flow and Summary sheets; `live`
/// false and all "" when the workbook has no Cash flow, Summary or Timeline (the quote: the
/// checks' cached results only).
struct OptionCells {
  bool live = false;
  std::string total;            ///< its total cost: the total row's sum
  std::string npv;              ///< its NPV: the discounted row's sum
  std::string total_range;      ///< the total row, month 0 to the horizon
  std::string cumulative_last;  ///< the cumulative row at the horizon
  std::string summary_total;    ///< its total cost on the Summary
};

OptionCells option_cells(const CheckInputs& in, size_t i) {
  OptionCells cells;
  cells.live = in.cash_flow != nullptr && in.summary != nullptr && in.timeline != nullptr;
  if (!cells.live) return cells;
  const OptionBlock& block = in.cash_flow->blocks.at(i);
  cells.total = sheet_cell_ref(kCashFlowSheet, block.total, in.cash_flow->sum_col);
  cells.npv = sheet_cell_ref(kCashFlowSheet, block.discounted, in.cash_flow->sum_col);
  cells.total_range = sheet_range_ref(kCashFlowSheet, block.total, in.cash_flow->first_month_col,
                                      block.total, in.cash_flow->last_month_col);
  cells.cumulative_last =
      sheet_cell_ref(kCashFlowSheet, block.cumulative, in.cash_flow->last_month_col);
  cells.summary_total =
      sheet_cell_ref(kSummarySheet, static_cast<lxw_row_t>(in.summary->first_option_row + i),
                     in.summary->total_col);
  return cells;
}

/// The option's plan-year costs add up to its total (none when it has no plan years).
std::optional<Check> years_check(const OptionResult& option, size_t i, const CheckInputs& in,
                                 const OptionCells& cells) {
  if (option.annual_costs.empty()) return std::nullopt;
  Check c{"Years add up to the horizon total", option.id, "",
          near(sum(option.annual_costs), option.total_cost),
          "Summary: the sum of the option's plan-year costs equals its total cost."};
  if (cells.live && in.summary->years > 0) {
    // The option's row in each block of the Summary's cost by plan year.
    const SummaryLayout& summary = *in.summary;
    std::string years;
    for (size_t first = 1; first <= option.annual_costs.size(); first += summary.years_per_block) {
      const size_t last = std::min(option.annual_costs.size(), first + summary.years_per_block - 1);
      const lxw_row_t row = summary.year_row_of(i, first);
      years += (years.empty() ? "" : ",") + sheet_range_ref(kSummarySheet, row,
                                                            summary.year_col_of(first), row,
                                                            summary.year_col_of(last));
    }
    c.formula = "=" + near_formula("SUM(" + years + ")", cells.summary_total);
  }
  return c;
}

/// The cumulative cost at the horizon equals the total (none without a cumulative row).
std::optional<Check> cumulative_check(const OptionResult& option, const OptionCells& cells) {
  const CashFlow& cf = option.cash_flow;
  if (cf.cumulative.empty()) return std::nullopt;
  Check c{"Cumulative cost at the horizon equals the total", option.id, "",
          near(cf.cumulative.back(), option.total_cost),
          "Cash flow: the cumulative row's last month equals the sum of the total row."};
  if (cells.live) c.formula = "=" + near_formula(cells.cumulative_last, cells.total);
  return c;
}

/// The NPV equals the totals discounted by the Timeline's factors (the first option's; none
/// when the option's months are not the factors' months).
std::optional<Check> npv_check(const Plan& plan, const OptionResult& option, const CheckInputs& in,
                               const OptionCells& cells) {
  const CashFlow& cf = option.cash_flow;
  if (plan.options.empty() ||
      cf.total.size() != plan.options.front().cash_flow.discount_factor.size()) {
    return std::nullopt;
  }
  double npv = 0;
  const auto& factor = plan.options.front().cash_flow.discount_factor;
  for (size_t m = 0; m < cf.total.size(); ++m) npv += cf.total[m] * factor[m];
  Check c{"NPV equals the totals discounted by the Timeline", option.id, "", near(npv, option.npv),
          "NPV recomputed as SUMPRODUCT of the total row and the Timeline's discount "
          "factors equals the Cash flow's NPV (the sum of the discounted row)."};
  if (cells.live) {
    const std::string factors =
        sheet_range_ref(kTimelineSheet, in.timeline->discount_row, in.timeline->first_month_col,
                        in.timeline->discount_row, in.timeline->last_month_col);
    c.formula =
        "=" + near_formula("SUMPRODUCT(" + cells.total_range + "," + factors + ")", cells.npv);
  }
  return c;
}

/// The P&L sums to the cash over the horizon, and each year reconciles (issue #16); none
/// without a P&L.
std::optional<Check> profit_and_loss_check(const OptionResult& option, size_t i,
                                           const CheckInputs& in) {
  const ProfitAndLoss& pl = option.profit_and_loss;
  if (pl.total.empty()) return std::nullopt;
  double differences = 0;
  for (size_t y = 0; y < pl.total.size(); ++y) {
    differences += std::abs(pl.cash[y] - (pl.total[y] + pl.capex[y] - pl.depreciation[y] +
                                          pl.loan_principal[y] - pl.book_value_written_off[y]));
  }
  Check c{"The P&L equals the cash over the horizon, every year reconciled", option.id, "",
          near(sum(pl.total), sum(pl.cash)) &&
              differences <= kTolerance * std::max(1.0, std::abs(sum(pl.cash))),
          "Profit and loss: the P&L cost summed over the plan years equals the cash total; "
          "each year's cash = P&L + capex - depreciation + loan drawn/repaid - book value "
          "written off."};
  if (in.profit_and_loss != nullptr && i < in.profit_and_loss->total_rows.size()) {
    const ProfitAndLossLayout& layout = *in.profit_and_loss;
    const std::string pl_total =
        sheet_cell_ref(kProfitAndLossSheet, layout.total_rows[i], layout.sum_col);
    const std::string cash =
        sheet_cell_ref(kProfitAndLossSheet, layout.cash_rows[i], layout.sum_col);
    const std::string differences_range =
        sheet_range_ref(kProfitAndLossSheet, layout.difference_rows[i], layout.first_year_col,
                        layout.difference_rows[i], layout.last_year_col);
    c.formula = "=AND(" + near_formula(pl_total, cash) + ",SUMPRODUCT(ABS(" + differences_range +
                "))<=" + kToleranceName + "*MAX(1,ABS(" + cash + ")))";
  }
  return c;
}

/// The annual costs by component add up to the total (none when the Summary has no plan
/// years).
std::optional<Check> components_check(const OptionResult& option, size_t i, const CheckInputs& in,
                                      const OptionCells& cells) {
  if (in.summary != nullptr && in.summary->years == 0) return std::nullopt;
  const CashFlow& cf = option.cash_flow;
  double components = 0;
  for (size_t c = 0; c < kCostComponents; ++c) components += sum(cost_component(cf, c));
  Check c{"Annual costs by component add up to the total", option.id, "",
          near(components, option.total_cost),
          "Summary: the option's rows of the annual cost by component sum to its total "
          "cost (no cost outside the components shown)."};
  if (cells.live) {
    const auto first =
        static_cast<lxw_row_t>(in.summary->first_component_row + i * in.summary->years);
    const std::string range = sheet_range_ref(kSummarySheet, first, in.summary->component_total_col,
                                              static_cast<lxw_row_t>(first + in.summary->years - 1),
                                              in.summary->component_total_col);
    c.formula = "=" + near_formula("SUM(" + range + ")", cells.summary_total);
  }
  return c;
}

/// Each option's own checks, option by option: years, cumulative, NPV, P&L, components.
std::vector<Check> option_checks(const Plan& plan, const CheckInputs& in) {
  std::vector<Check> checks;
  const auto add = [&checks](std::optional<Check> c) {
    if (c) checks.push_back(std::move(*c));
  };
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    const OptionCells cells = option_cells(in, i);
    add(years_check(option, i, in, cells));
    add(cumulative_check(option, cells));
    add(npv_check(plan, option, in, cells));
    add(profit_and_loss_check(option, i, in));
    add(components_check(option, i, in, cells));
  }
  return checks;
}

std::vector<Check> break_even_checks(const Plan& plan, const CheckInputs& in) {
  std::vector<Check> checks;
  size_t baseline = plan.options.size();
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (plan.options[i].id == plan.baseline_option_id) baseline = i;
  }
  if (baseline == plan.options.size()) return checks;
  const auto& base_cum = plan.options[baseline].cash_flow.cumulative;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    // Every owned option compared with the baseline: an edited input may give one a
    // break-even month it did not have when gputco wrote the workbook.
    if (option.kind != OptionKind::buy || !option.feasible || i == baseline) continue;
    bool holds = true;
    if (option.break_even_month) {
      const auto m = static_cast<size_t>(*option.break_even_month);
      if (m >= option.cash_flow.cumulative.size() || m >= base_cum.size()) continue;
      holds = option.cash_flow.cumulative[m] <= base_cum[m];
    }
    Check c{"At the break-even month owning costs no more than the baseline", option.id, "", holds,
            "Cash flow: the option's cumulative cost in its break-even month (Summary) is at or "
            "below the rental baseline's (" +
                plan.baseline_option_id + "); TRUE when it has no break-even month."};
    if (in.cash_flow != nullptr && in.summary != nullptr) {
      const auto range = [&](size_t k) {
        const lxw_row_t row = in.cash_flow->blocks.at(k).cumulative;
        return sheet_range_ref(kCashFlowSheet, row, in.cash_flow->first_month_col, row,
                               in.cash_flow->last_month_col);
      };
      const std::string month =
          sheet_cell_ref(kSummarySheet, static_cast<lxw_row_t>(in.summary->first_compare_row + i),
                         in.summary->break_even_month_col);
      c.formula = "=IF(ISNUMBER(" + month + "),INDEX(" + range(i) + ",1," + month + "+1)<=INDEX(" +
                  range(baseline) + ",1," + month + "+1),TRUE)";
    }
    checks.push_back(c);
  }
  return checks;
}

std::vector<Check> workbook_checks(const Plan& plan, const ResolvedScenario& scenario,
                                   const InputNames& names, const CheckInputs& in) {
  std::vector<Check> checks;
  // The recommended option holds the model.
  {
    Check c{"The recommended option holds the model", "workbook", "", true,
            "Summary: the recommended option's fit verdict is not \"does not fit\"."};
    size_t index = plan.options.size();
    for (size_t i = 0; i < plan.options.size(); ++i) {
      if (plan.recommendation && plan.options[i].id == *plan.recommendation) index = i;
    }
    if (index < plan.options.size()) {
      c.value = plan.options[index].fit.verdict != Verdict::does_not_fit;
      if (in.summary != nullptr) {
        const auto last =
            static_cast<lxw_row_t>(in.summary->first_option_row + plan.options.size() - 1);
        const std::string fits = sheet_range_ref(kSummarySheet, in.summary->first_option_row,
                                                 in.summary->fit_col, last, in.summary->fit_col);
        const std::string ids =
            sheet_range_ref(kSummarySheet, in.summary->first_option_row, in.summary->option_col,
                            last, in.summary->option_col);
        const std::string recommended =
            sheet_cell_ref(kSummarySheet, in.summary->recommendation_row, in.summary->value_col);
        c.formula = "=INDEX(" + fits + ",MATCH(" + recommended + "," + ids + ",0))<>\"" +
                    verdict_label(Verdict::does_not_fit) + "\"";
      }
      checks.push_back(c);
    }
  }
  // The recommendation is the cheapest option that holds the model, recomputed from the NPVs
  // (a master check: a Summary or Cover showing another one is wrong); and it is still the one
  // gputco wrote (a warning: an input changed since, so the text summary and the quote are
  // stale).
  if (plan.recommendation && in.metrics != nullptr && in.summary != nullptr) {
    const MetricsLayout& m = *in.metrics;
    const auto last = static_cast<lxw_row_t>(m.first_option_row + plan.options.size() - 1);
    const auto column = [&](lxw_col_t col) {
      return sheet_range_ref(kMetricsSheet, m.first_option_row, col, last, col);
    };
    const std::string shown =
        sheet_cell_ref(kSummarySheet, in.summary->recommendation_row, in.summary->value_col);
    const std::string lowest = "MIN(" + column(m.ranked_npv_col) + ")";
    checks.push_back(
        {"The recommendation has the lowest NPV among the options that hold the model", "workbook",
         "=" + near_formula("INDEX(" + column(m.ranking_npv_col) + ",MATCH(" + shown + "," +
                                column(m.label_col) + ",0))",
                            lowest),
         true,
         "Summary: the recommended option's NPV (Metrics) equals the lowest NPV among the "
         "options whose fit is not \"does not fit\" and that no constraint excludes."});
    checks.push_back(
        {"The recommendation is the one gputco wrote (warning)", "workbook",
         "=" + sheet_cell_ref(kMetricsSheet, m.recommendation_row, m.value_col) + "=" +
             sheet_cell_ref(kMetricsSheet, m.recommendation_row, m.written_col),
         true,
         "Metrics: the recommendation recomputed from the inputs as they are now equals gputco's "
         "when it wrote the workbook. A warning: FALSE means an input was changed since, so the "
         "text summary and any quote made from the scenario are stale; rerun gputco.",
         true});
  }
  // The break-even baseline and the API reference were chosen by gputco as the cheapest (per
  // hour of use; by total cost): still so with the inputs as they are now? A warning: rerun
  // gputco to compare against the new cheapest.
  {
    const auto option_index = [&](const std::string& id) {
      for (size_t i = 0; i < plan.options.size(); ++i) {
        if (plan.options[i].id == id) return i;
      }
      return plan.options.size();
    };
    const size_t b = option_index(plan.baseline_option_id);
    const OptionInputs* base = find_option_inputs(scenario, plan.baseline_option_id);
    if (b < plan.options.size() && base != nullptr &&
        scenario.plan_inputs.baseline_option_id.empty() &&
        names.has(plan.baseline_option_id, "rate_per_gpu_hour")) {
      std::vector<std::string> terms;
      for (size_t i = 0; i < plan.options.size(); ++i) {
        const OptionInputs* other = find_option_inputs(scenario, plan.options[i].id);
        if (i == b || other == nullptr || other->kind != OptionKind::rent_hourly ||
            other->term != RentTerm::on_demand || !plan.options[i].feasible ||
            !names.has(other->id, "rate_per_gpu_hour")) {
          continue;
        }
        terms.push_back(
            names.at(base->id, "rate_per_gpu_hour") + "*" + names.at(base->id, "count") +
            "<=" + names.at(other->id, "rate_per_gpu_hour") + "*" + names.at(other->id, "count"));
      }
      if (!terms.empty()) {
        checks.push_back({"The break-even baseline is still the cheapest rental per hour (warning)",
                          plan.baseline_option_id, "=" + function_call("AND", terms), true,
                          "Inputs: no other on-demand hourly rental costs less per hour of use "
                          "than the baseline gputco chose. A warning: FALSE means a rate was "
                          "changed since; rerun gputco to compare owning with the new cheapest.",
                          true});
      }
    }
    const size_t a = option_index(plan.api_reference_option_id);
    if (a < plan.options.size() && in.metrics != nullptr) {
      std::vector<std::string> terms;
      const auto total = [&](size_t i) {
        return sheet_cell_ref(kMetricsSheet,
                              static_cast<lxw_row_t>(in.metrics->first_option_row + i),
                              in.metrics->total_col);
      };
      for (size_t i = 0; i < plan.options.size(); ++i) {
        if (i == a || plan.options[i].kind != OptionKind::api) continue;
        terms.push_back(total(a) + "<=" + total(i));
      }
      if (!terms.empty()) {
        checks.push_back(
            {"The API the break-even volume is against is still the cheapest (warning)",
             plan.api_reference_option_id, "=" + function_call("AND", terms), true,
             "Metrics: no other API option costs less over the horizon. A warning: "
             "FALSE means a price was changed since; rerun gputco.",
             true});
      }
    }
  }
  // No price older than the scenario allows: a warning (a fact about the catalog's dates,
  // not an error of the model's arithmetic), so it stays out of the master check; the Cover
  // shows the count of stale prices on its own line.
  if (!scenario.sources.empty()) {
    Check c{"No price older than the scenario allows",
            "workbook",
            "",
            true,
            "Sources: the oldest price's age is at most the Inputs' stale-after days (" +
                std::to_string(scenario.max_price_age_days) +
                "). A warning, not in the master check: refresh the prices or accept their age.",
            true};
    for (const SourceRow& source : scenario.sources) {
      c.value = c.value && source.age_days <= scenario.max_price_age_days;
    }
    if (in.sources != nullptr) {
      const auto last = static_cast<lxw_row_t>(in.sources->first_row + in.sources->count - 1);
      if (names.has("scenario", "max_price_age_days")) {
        c.formula = "=MAX(" +
                    sheet_range_ref(kSourcesSheet, in.sources->first_row, in.sources->age_col, last,
                                    in.sources->age_col) +
                    ")<=" + std::to_string(scenario.max_price_age_days);
      } else {
        c.description = "Sources: no price is flagged stale.";
        c.formula = "=COUNTIF(" +
                    sheet_range_ref(kSourcesSheet, in.sources->first_row, in.sources->stale_col,
                                    last, in.sources->stale_col) +
                    ",\"stale\")=0";
      }
    }
    checks.push_back(c);
  }
  // Spot rates not above on-demand: per device-hour for every spot option beside an
  // on-demand option of the same device (the rates the plan uses, whichever offers they came
  // from), and for every offer the Sources list at both terms. A warning: a fact about the
  // inputs, not the model's arithmetic (the terminal warns of the same options).
  constexpr const char* kSpotCheck = "Spot rate not above on-demand (warning)";
  bool any_spot = false;
  for (const OptionInputs& spot : scenario.plan_inputs.options) {
    if (spot.kind != OptionKind::rent_hourly || spot.term != RentTerm::spot) continue;
    for (const OptionInputs& od : scenario.plan_inputs.options) {
      if (od.kind != OptionKind::rent_hourly || od.term != RentTerm::on_demand ||
          od.device.id != spot.device.id) {
        continue;
      }
      any_spot = true;
      Check c{kSpotCheck,
              spot.id,
              "",
              spot.rate_per_gpu_hour <= od.rate_per_gpu_hour,
              "Inputs: the spot rate per device-hour of " + spot.id +
                  " is at most the on-demand rate of " + od.id + " (the same device, " +
                  spot.device.id +
                  "). A warning: spot capacity sells below on-demand; FALSE "
                  "means a rate to check.",
              true};
      if (names.has(spot.id, "rate_per_gpu_hour") && names.has(od.id, "rate_per_gpu_hour")) {
        c.formula = "=" + names.at(spot.id, "rate_per_gpu_hour") +
                    "<=" + names.at(od.id, "rate_per_gpu_hour");
      }
      checks.push_back(c);
    }
  }
  std::map<std::string, size_t> on_demand;
  for (size_t i = 0; i < scenario.sources.size(); ++i) {
    const auto [offer, term] = offer_and_term(scenario.sources[i].what);
    if (term == "on_demand") on_demand[offer] = i;
  }
  for (size_t i = 0; i < scenario.sources.size(); ++i) {
    const SourceRow& spot = scenario.sources[i];
    const auto [offer, term] = offer_and_term(spot.what);
    const auto it = on_demand.find(offer);
    if (term != "spot" || it == on_demand.end()) continue;
    const SourceRow& base = scenario.sources[it->second];
    if (base.currency != spot.currency || base.unit != spot.unit) continue;
    any_spot = true;
    Check c{kSpotCheck,
            offer,
            "",
            spot.amount <= base.amount,
            "Sources: the spot rate of " + offer + " is at most its on-demand rate.",
            true};
    if (in.sources != nullptr) {
      c.formula =
          "=" +
          sheet_cell_ref(kSourcesSheet, static_cast<lxw_row_t>(in.sources->first_row + i),
                         in.sources->amount_col) +
          "<=" +
          sheet_cell_ref(kSourcesSheet, static_cast<lxw_row_t>(in.sources->first_row + it->second),
                         in.sources->amount_col);
    }
    checks.push_back(c);
  }
  if (!any_spot) {
    checks.push_back({kSpotCheck, "workbook", "", true,
                      "Not applicable: no spot option beside an on-demand option of the same "
                      "device, and the Sources list no offer at both the spot and the "
                      "on-demand rate."});
    checks.back().scope = "n/a";
  }
  return checks;
}

/// Per api option: the demand's peak tokens (and requests) per minute in the hours of use,
/// in the month with the highest growth factor, within the published rate limits (engine
/// api_rate_limits). A warning, not a model error: exceeding a limit leaves the plan's
/// arithmetic right (batch, spread the load or buy a higher tier), so these checks are shown
/// but not part of the master check.
std::vector<Check> rate_limit_checks(const Plan& plan, const ResolvedScenario& scenario,
                                     const InputNames& names, const CheckInputs& in) {
  std::vector<Check> checks;
  for (const OptionResult& option : plan.options) {
    if (option.kind != OptionKind::api) continue;
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    const auto limit_check = [&](const char* what, const char* key,
                                 const std::optional<double>& limit,
                                 const std::optional<double>& peak, const std::string& volume) {
      Check c{std::string("API peak ") + what + " per minute within the published limit (warning)",
              option.id,
              "",
              !(limit && peak && *peak > *limit),
              "",
              true};
      if (!limit) {
        c.description = std::string("Not applicable: no published ") + what +
                        "-per-minute limit for this API (a warning, not in the master check).";
        checks.push_back(c);
        return;
      }
      c.description = std::string("Inputs: the peak ") + what +
                      " per minute (month-1 volume x the highest demand factor of the Cash flow "
                      "timeline, spread over the hours of use) are at most the published limit. "
                      "A warning, not in the master check: a higher tier, batching or spreading "
                      "the load is needed when FALSE.";
      if (in.cash_flow != nullptr && names.has(option.id, key)) {
        const std::string growth =
            sheet_range_ref(kCashFlowSheet, in.cash_flow->growth_row, in.cash_flow->first_month_col,
                            in.cash_flow->growth_row, in.cash_flow->last_month_col);
        const std::string hours = names.at("workload", "hours_per_day");
        c.formula = "=IF(" + hours + ">0," + volume + "*MAX(" + growth + ")/(" + hours + "*" +
                    names.at(kConstantsSection, "minutes_per_hour") +
                    ")<=" + names.at(option.id, key) + ",TRUE)";
      }
      checks.push_back(c);
    };
    if (inputs == nullptr) continue;
    const std::string tokens = names.has("workload", "input_tokens_per_output_token")
                                   ? "(1+" + names.at("workload", "input_tokens_per_output_token") +
                                         ")*" + names.at("workload", "tokens_per_day")
                                   : "";
    limit_check("tokens", "tokens_per_minute_limit", inputs->tokens_per_minute_limit,
                option.peak_tokens_per_minute, tokens);
    const std::string requests =
        names.has("workload", "requests_per_day") ? names.at("workload", "requests_per_day") : "";
    limit_check("requests", "requests_per_minute_limit", inputs->requests_per_minute_limit,
                option.peak_requests_per_minute, requests);
  }
  return checks;
}

std::vector<Check> sensitivity_checks(const Plan& plan, const CheckInputs& in) {
  std::vector<Check> checks;
  if (in.sensitivity == nullptr || in.sensitivity_layout == nullptr) return checks;
  const Sensitivity& s = *in.sensitivity;
  if (in.sensitivity_layout->engine_base_row != 0) {
    const SensitivityLayout& layout = *in.sensitivity_layout;
    double workbook_base = 0;
    for (const auto& option : plan.options) {
      if (option.id == s.owned_option_id) workbook_base += option.npv;
      if (option.id == s.rented_option_id) workbook_base -= option.npv;
    }
    Check c{"Tornado base equals the workbook's NPV difference (warning)",
            "workbook",
            "",
            near(workbook_base, s.base_difference),
            "Sensitivity: the engine's buy - rent NPV difference at the base inputs equals the "
            "difference of the Cash flow NPVs. A warning: the Sensitivity sheet holds gputco's "
            "reruns of the plan (values), so FALSE means an input was changed since; rerun "
            "gputco for a new tornado.",
            true};
    c.formula =
        "=" +
        near_formula(sheet_cell_ref(kSensitivitySheet, layout.workbook_base_row, layout.value_col),
                     sheet_cell_ref(kSensitivitySheet, layout.engine_base_row, layout.value_col));
    checks.push_back(c);
  }
  if (s.risk && in.sensitivity_layout->difference_row != 0) {
    const SensitivityLayout& layout = *in.sensitivity_layout;
    const auto at = [&](lxw_row_t offset) {
      return sheet_cell_ref(kSensitivitySheet, layout.difference_row + offset, layout.value_col);
    };
    checks.push_back({"Monte Carlo difference percentiles in order (P10 <= P50 <= P90)", "workbook",
                      "=AND(" + at(0) + "<=" + at(1) + "," + at(1) + "<=" + at(2) + ")",
                      s.risk->p10_difference <= s.risk->p50_difference &&
                          s.risk->p50_difference <= s.risk->p90_difference,
                      "Sensitivity: the engine's percentiles of the buy - rent NPV difference "
                      "are ordered."});
  }
  if (s.risk) {
    const SensitivityLayout& layout = *in.sensitivity_layout;
    for (size_t k = 0; k < s.risk->options.size(); ++k) {
      const auto& p = s.risk->options[k];
      Check c{"Monte Carlo percentiles in order (P10 <= P50 <= P90)", p.id, "",
              p.p10_total_cost <= p.p50_total_cost && p.p50_total_cost <= p.p90_total_cost,
              "Sensitivity: the engine's percentiles of total cost are ordered."};
      const auto row = static_cast<lxw_row_t>(layout.monte_carlo_first_row + k);
      const std::string p10 = cell_ref(row, layout.p10_col);
      const std::string p50 = cell_ref(row, static_cast<lxw_col_t>(layout.p10_col + 1));
      const std::string p90 = cell_ref(row, static_cast<lxw_col_t>(layout.p10_col + 2));
      const std::string sheet = sheet_cell_ref(kSensitivitySheet, row, layout.p10_col);
      const std::string prefix = sheet.substr(0, sheet.find('!') + 1);
      c.formula = "=AND(" + prefix + p10 + "<=" + prefix + p50 + "," + prefix + p50 +
                  "<=" + prefix + p90 + ")";
      checks.push_back(c);
    }
  }
  return checks;
}

/// The inputs gputco's own estimates rest on, among the Inputs' names: the estimates of speed,
/// prefill, capacity, instances per unit and the day's peak (the white rows' model, context and
/// engine aside, which no formula reads) follow from the devices per unit, the concurrent
/// streams and the mean request; streams derived by Little's law from the requests a day, the
/// hours and the peak; an uneven day's peak multiplier from the hours. A formula reads these
/// estimates as inputs, so a changed one leaves the totals resting on estimates for other
/// inputs: stale until gputco runs again.
std::vector<std::pair<std::string, std::string>> estimate_inputs(const Plan& plan,
                                                                 const ResolvedScenario& scenario,
                                                                 const InputNames& names) {
  std::vector<std::pair<std::string, std::string>> keys = {
      {"workload", "concurrent_streams"},
      {"workload", "prompt_tokens_per_request"},
      {"workload", "output_tokens_per_request"},
      {"workload", "peak_multiplier"}};
  bool streams_derived = false;
  for (const InputRow& row : scenario.inputs) {
    if (row.section == "workload" && row.key == "concurrent_streams" &&
        row.provenance.rfind("derived by Little's law", 0) == 0) {
      streams_derived = true;
    }
  }
  const WorkloadInputs& workload = scenario.plan_inputs.workload;
  const bool uneven_day = !workload.hourly_profile.empty() || workload.peak_factor > 1;
  if (streams_derived || uneven_day) {
    for (const char* key : {"hours_per_day", "requests_per_day", "tokens_per_day"}) {
      keys.emplace_back("workload", key);
    }
  }
  // An autoscaled rental over an uneven day bills the engine's instance-hours of each month
  // (BlockFormulas::set_engine_billed_hours): they rest on the days of use and the growth too.
  // (An owned option's overflow is billed as its rental is: a rental is in this list itself.)
  bool autoscaled = false;
  for (const OptionInputs& o : scenario.plan_inputs.options) {
    autoscaled = autoscaled || (o.kind == OptionKind::rent_hourly && term_months(o.term) == 0 &&
                                o.hourly_billing.billing == Billing::autoscaled);
  }
  if (uneven_day && autoscaled) {
    for (const char* key : {"days_per_month", "growth_per_month"}) {
      keys.emplace_back("workload", key);
    }
  }
  for (const OptionResult& option : plan.options) {
    if (option.kind != OptionKind::api) keys.emplace_back(option.id, "count");
  }
  std::vector<std::pair<std::string, std::string>> present;
  for (const auto& key : keys) {
    if (names.has(key.first, key.second) && !names.derived(key.first, key.second)) {
      present.push_back(key);
    }
  }
  return present;
}

/// Two statuses, not part of the master check: whether the figures only gputco computes still
/// match the inputs (any input changed since gputco wrote the workbook makes them stale), and
/// whether the engine's estimates the formulas read still do (an input they rest on changed).
std::vector<Check> stale_checks(const Plan& plan, const ResolvedScenario& scenario,
                                const InputNames& names, const CheckInputs& in) {
  std::vector<Check> checks;
  if (in.cash_flow == nullptr) return checks;
  Check any{"Figures only gputco computes are current (status)",
            "workbook",
            "=IF(" + changed_inputs_count() + "=0,\"" + kCurrent + "\",\"" + kStale + "\")",
            true,
            "Inputs: no input differs from the value gputco wrote (column I). The Sensitivity "
            "and Crossover sheets, the Hardware sheet's fit, speed and sizing, the Monte Carlo "
            "and a break-even volume gputco searched are its runs at those inputs: they do not "
            "follow edits. A status, not in the master check: re-run gputco for them.",
            true,
            true};
  checks.push_back(any);
  const auto keys = estimate_inputs(plan, scenario, names);
  if (!keys.empty()) {
    std::vector<std::string> terms;
    std::string listed;
    for (const auto& [section, key] : keys) {
      terms.push_back(names.name_of(section, key) + "=" + names.written_ref(section, key));
    }
    Check estimates{
        "The engine's estimates the formulas read are current (status)",
        "workbook",
        "=IF(" + function_call("AND", terms) + ",\"" + kCurrent + "\",\"" + kStale + "\")",
        true,
        "Inputs: the inputs gputco's estimates of speed, prefill, capacity, instances per "
        "unit and the peak rest on (devices per unit, concurrent streams, the mean request; "
        "with streams from Little's law or an uneven day, the requests and the hours) are as "
        "gputco wrote them. Changed, those estimates, and the units, hours and costs that "
        "follow from them, are stale: re-run gputco, or type measured figures into the "
        "estimate rows.",
        true,
        true};
    checks.push_back(estimates);
  }
  return checks;
}

}  // namespace

ChecksLayout write_checks_sheet(lxw_workbook* workbook, SheetWriter* sheet, const Formats& formats,
                                const Plan& plan, const ResolvedScenario& scenario,
                                const InputNames& names, const CheckInputs& inputs) {
  std::vector<Check> checks = option_checks(plan, inputs);
  for (auto& c : break_even_checks(plan, inputs)) checks.push_back(std::move(c));
  for (auto& c : workbook_checks(plan, scenario, names, inputs)) checks.push_back(std::move(c));
  for (auto& c : sensitivity_checks(plan, inputs)) checks.push_back(std::move(c));
  for (auto& c : rate_limit_checks(plan, scenario, names, inputs)) checks.push_back(std::move(c));
  const size_t first_status = checks.size();
  for (auto& c : stale_checks(plan, scenario, names, inputs)) checks.push_back(std::move(c));

  ChecksLayout layout;
  for (const Check& c : checks) {
    if (c.scope != "n/a" && !c.warning) layout.all_pass = layout.all_pass && c.value;
  }
  if (sheet == nullptr) return layout;

  const lxw_col_t c_name = 0, c_scope = 1, c_result = 2, c_how = 3;
  layout.result_col = c_result;
  sheet->text(0, 0, "Checks", formats.title);
  // Column widths in characters; long texts wrap inside them (a line running past the last
  // column widened what prints one page wide).
  // What a check tests wraps in 100 characters (120 before): 60 + 22 + 9 + 100 characters
  // print one page wide at 75 % on A4.
  constexpr double kNameChars = 60, kScopeChars = 22, kResultChars = 9, kHowChars = 100;
  write_wrapped_across(*sheet, 1, c_name, c_how,
                       kNameChars + kScopeChars + kResultChars + kHowChars,
                       "Each check is a live formula: TRUE when the workbook agrees with itself. "
                       "The master check (their AND) is shown on the Cover. Warnings (an API's "
                       "rate limits) are shown but not part of the master check.",
                       formats.note_wrapped);
  const lxw_row_t tolerance_row = 3;
  sheet->text(tolerance_row, c_name, "Tolerance of the equality checks (relative)", formats.label);
  sheet->number(tolerance_row, c_scope, kTolerance, formats.input_number);
  sheet->text(tolerance_row, c_how, "input: a difference below this share of the figure passes",
              formats.note);
  check_xlsx(
      workbook_define_name(workbook, kToleranceName,
                           ("=" + sheet_cell_ref(kChecksSheet, tolerance_row, c_scope)).c_str()),
      std::string("defining the workbook name ") + kToleranceName);

  layout.master_row = tolerance_row + 1;
  const lxw_row_t header = layout.master_row + 2;
  sheet->text(header, c_name, "Check", formats.header);
  sheet->text(header, c_scope, "Scope", formats.header);
  sheet->text(header, c_result, "Result", formats.header);
  sheet->text(header, c_how, "What it tests", formats.header);
  lxw_row_t row = header + 1;
  std::vector<std::string> master;  // every check but the warnings: 5 or more per option
  for (const Check& c : checks) {
    sheet->text(row, c_name, c.name);
    sheet->text(row, c_scope, c.scope);
    if (c.formula.empty() || c.scope == "n/a") {
      sheet->text(row, c_result, kNotAvailable, formats.check_text);
    } else if (c.status) {
      sheet->formula_text(row, c_result, c.formula, kCurrent, formats.check_text);
      const size_t k = static_cast<size_t>(&c - checks.data());
      (k == first_status ? layout.inputs_changed_row : layout.estimates_row) = row;
    } else {
      write_check(*sheet, true, row, c_result, c.formula, c.value, formats.check);
      if (!c.warning) master.push_back(cell_ref(row, c_result));
    }
    sheet->text(row, c_how, c.description, formats.wrapped);
    const double lines = std::ceil(static_cast<double>(c.description.size()) / kHowChars);
    if (lines > 1) {
      check_xlsx(worksheet_set_row(sheet->raw(), row, 15 * lines, nullptr), "sizing a check's row");
    }
    ++row;
  }
  sheet->text(layout.master_row, c_name, "All checks pass (the master check)", formats.label);
  sheet->text(layout.master_row, c_scope, "workbook");
  if (master.empty()) {
    sheet->text(layout.master_row, c_result, kNotAvailable, formats.check_text);
  } else {
    write_check(*sheet, true, layout.master_row, c_result, "=" + function_call("AND", master),
                layout.all_pass, formats.check);
  }

  // FALSE in red, TRUE in green, whatever the cells recalculate to.
  for (const auto& [rule_text, format] :
       {std::pair<std::string, lxw_format*>{
            "=" + cell_ref(layout.master_row, c_result, false, true) + "=FALSE", formats.fail},
        std::pair<std::string, lxw_format*>{
            "=" + cell_ref(layout.master_row, c_result, false, true) + "=TRUE", formats.pass}}) {
    lxw_conditional_format rule{};
    rule.type = LXW_CONDITIONAL_TYPE_FORMULA;
    rule.value_string = const_cast<char*>(rule_text.c_str());
    rule.format = format;
    check_xlsx(worksheet_conditional_format_range(sheet->raw(), layout.master_row, c_result,
                                                  row > header + 1 ? row - 1 : layout.master_row,
                                                  c_result, &rule),
               "colouring the checks");
  }
  sheet->width(c_name, c_name, kNameChars);
  sheet->width(c_scope, c_scope, kScopeChars);
  sheet->width(c_result, c_result, kResultChars);
  sheet->width(c_how, c_how, kHowChars);
  worksheet_freeze_panes(sheet->raw(), header + 1, 0);
  return layout;
}

}  // namespace gputco::xlsx
