// The Monte Carlo's reports: the terminal summary and JSON of `gputco risk`.
#include "reports/risk_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "reports/text_report.hpp"
#include "scenarios/risk_keys.hpp"

namespace gputco {
namespace {

// The range as reports show it: whole percents; a normal draw is truncated at zero.
std::string describe(const UncertainInput& in) {
  return risk_range_text(in, 0) +
         (in.distribution == Distribution::normal ? ", truncated at zero" : "");
}

const char* distribution_name(Distribution d) {
  switch (d) {
    case Distribution::uniform:
      return "uniform";
    case Distribution::triangular:
      return "triangular";
    case Distribution::normal:
      return "normal";
  }
  return "?";
}

double plan_total(const Plan& plan, const std::string& id) {
  const OptionResult* option = find_option_result(plan, id);
  return option != nullptr ? option->total_cost : 0;
}

/// Whether the plan's option `id` may be recommended (is_candidate): a Monte Carlo row of an
/// option a constraint excludes is never the lowest and says so.
bool candidate(const Plan& plan, const std::string& id) {
  const OptionResult* option = find_option_result(plan, id);
  return option != nullptr && is_candidate(*option);
}

}  // namespace

std::vector<RiskInputText> risk_input_texts(const RiskModel& model) {
  std::vector<RiskInputText> out;
  for (const RiskKey& k : risk_key_table()) {
    const UncertainInput& in = model.*(k.field);
    out.push_back({k.name, k.key, describe(in), k.applies_to, &in});
  }
  // The exchange rates the plan converts amounts from, in code order (RiskModel::fx).
  for (const auto& [code, in] : model.fx) {
    out.push_back({"exchange rate " + code, kRiskFxPrefix + code, describe(in),
                   "every amount converted from " + code + " (plan currency per " + code + ")",
                   &in});
  }
  return out;
}

std::string risk_correlation_text(const RiskModel& model) {
  const double rho = model.purchase_rental_correlation;
  if (rho == 0) return "purchase price and rental rate drawn apart (correlation 0)";
  return fmt::format(
      "purchase price and rental rate move together: correlation {:.2f} (Gaussian copula)", rho);
}

std::string risk_text(const ResolvedScenario& s, const Plan& plan, const RiskResult& r,
                      const RiskModel& model, const std::string& comparison_note) {
  std::string out;
  out += fmt::format("{}\n", s.name);
  out += fmt::format("Monte Carlo: {} draws, seed {}; amounts in {} over {} months\n\n", r.draws,
                     r.seed, plan.currency, plan.horizon_months);
  // Without a device rental the comparison is the cheapest pay-per-token API: not "renting".
  bool api = false;
  for (const auto& o : plan.options) {
    if (o.id == r.rented_option_id) api = o.kind == OptionKind::api;
  }
  const char* other = api ? "paying per token" : "renting";
  // The answer a finance reader looks for first: which option is cheapest how often, the
  // plan's recommendation rule applied to each draw (an API the buy-versus-rent pair leaves
  // out included).
  const RiskResult::OptionPercentiles* most = nullptr;
  for (const auto& o : r.options) {
    if (candidate(plan, o.id) &&
        (most == nullptr || o.probability_lowest_npv > most->probability_lowest_npv))
      most = &o;
  }
  if (most != nullptr) {
    const bool recommended = plan.recommendation && *plan.recommendation == most->id;
    out += fmt::format("Lowest NPV of cost most often: {}, in {:.1f} % of draws{}.\n", most->id,
                       most->probability_lowest_npv * 100,
                       recommended           ? " (the plan's recommendation)"
                       : plan.recommendation ? " (the plan recommends " + *plan.recommendation +
                                                   ": the lowest at the scenario's values)"
                                             : "");
  }
  if (r.compared) {
    out += fmt::format("Buying {} beats {} {} (lower NPV of cost) in {:.1f} % of draws.\n",
                       r.owned_option_id, other, r.rented_option_id,
                       r.probability_buy_beats_rent * 100);
    out += fmt::format(
        "NPV of buying minus {}: P10 {}, P50 {}, P90 {} (negative: buying is "
        "cheaper)\n\n",
        other, whole_money_text(r.p10_difference), whole_money_text(r.p50_difference),
        whole_money_text(r.p90_difference));
  } else {
    out += fmt::format(
        "No buy-versus-rent probability: {}. The total costs below are drawn all the same.\n\n",
        comparison_note.empty() ? "the plan has no owned option and rental to compare"
                                : comparison_note);
  }
  size_t id_width = 16;
  for (const auto& o : r.options) id_width = std::max(id_width, o.id.size());
  out += fmt::format("{:<{}} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "total cost", id_width, "plan",
                     "P10", "P50", "P90", "lowest NPV");
  for (const auto& o : r.options) {
    out +=
        fmt::format("{:<{}} {:>12} {:>12} {:>12} {:>12} {:>12}\n", o.id, id_width,
                    whole_money_text(plan_total(plan, o.id)), whole_money_text(o.p10_total_cost),
                    whole_money_text(o.p50_total_cost), whole_money_text(o.p90_total_cost),
                    candidate(plan, o.id) ? fmt::format("{:.1f} %", o.probability_lowest_npv * 100)
                                          : "excluded");
  }
  std::string left_out;
  for (const auto& o : plan.options) {
    if (!o.feasible) left_out += (left_out.empty() ? "" : ", ") + o.id;
  }
  if (!left_out.empty())
    out += fmt::format("(left out, they do not hold the model: {})\n", left_out);
  out +=
      "\nUncertain inputs, as a change of the scenario's value (one draw per input, shared by "
      "every option):\n";
  const auto inputs = risk_input_texts(model);
  size_t name_width = 15;
  for (const auto& n : inputs) name_width = std::max(name_width, n.name.size());
  for (const auto& n : inputs) {
    out += fmt::format("  {:<{}} {:<36} {}\n", n.name, name_width, n.distribution, n.applies_to);
  }
  out += "  " + risk_correlation_text(model) + "\n";
  out += "Percentiles: Hyndman & Fan (1996) type 7, as Excel PERCENTILE.INC.\n";
  return out;
}

std::string risk_json(const ResolvedScenario& s, const Plan& plan, const RiskResult& r,
                      const RiskModel& model, const JsonStamp& stamp,
                      const std::string& comparison_note) {
  using ordered = nlohmann::ordered_json;
  ordered j;
  j["gputco"] = stamp_json(stamp);
  j["scenario"] = s.name;
  j["currency"] = plan.currency;
  j["horizon_months"] = plan.horizon_months;
  j["draws"] = r.draws;
  j["seed"] = r.seed;
  if (r.compared) {
    j["owned_option_id"] = r.owned_option_id;
    j["rented_option_id"] = r.rented_option_id;
    j["probability_buy_beats_rent"] = r.probability_buy_beats_rent;
    j["npv_difference"] = {
        {"p10", r.p10_difference}, {"p50", r.p50_difference}, {"p90", r.p90_difference}};
  } else {
    // Nothing to compare: the keys stay, null, and the note says why.
    j["owned_option_id"] = nullptr;
    j["rented_option_id"] = nullptr;
    j["probability_buy_beats_rent"] = nullptr;
    j["npv_difference"] = nullptr;
    j["no_comparison"] = comparison_note;
  }
  ordered options = ordered::array();
  for (const auto& o : r.options) {
    options.push_back(
        {{"id", o.id},
         {"plan_total_cost", plan_total(plan, o.id)},
         {"p10_total_cost", o.p10_total_cost},
         {"p50_total_cost", o.p50_total_cost},
         {"p90_total_cost", o.p90_total_cost},
         {"probability_lowest_npv",
          candidate(plan, o.id) ? ordered(o.probability_lowest_npv) : ordered(nullptr)}});
  }
  j["options"] = std::move(options);
  ordered inputs = ordered::array();
  for (const auto& n : risk_input_texts(model)) {
    inputs.push_back({{"input", n.name},
                      {"key", n.key},
                      {"distribution", distribution_name(n.input->distribution)},
                      {"low", n.input->low},
                      {"mode", n.input->mode},
                      {"high", n.input->high},
                      {"sd", n.input->sd}});
  }
  j["uncertain_inputs"] = std::move(inputs);
  j["purchase_rental_correlation"] = model.purchase_rental_correlation;
  j["quantile_definition"] = "Hyndman & Fan (1996) type 7 (Excel PERCENTILE.INC)";
  return j.dump(2) + "\n";
}

}  // namespace gputco
