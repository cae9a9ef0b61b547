// The Monte Carlo's reports (`gputco risk`): they format engine results, never compute them.
#pragma once

#include <string>
#include <vector>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "reports/json_stamp.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// One uncertain input of the Monte Carlo as every report shows it.
struct RiskInputText {
  std::string name;          ///< "purchase price"
  std::string key;           ///< its key in the scenario's [risk] section ("purchase_price")
  std::string distribution;  ///< "triangular -15 % / 0 % / +15 %", "fixed (not varied)"
  std::string applies_to;    ///< what it moves, and the bound applied beyond the distribution
  const UncertainInput* input = nullptr;  ///< into `model` (valid while it lives)
};

/// The uncertain inputs of `model`, in the order of `[risk]`'s keys (risk_key_table(): the
/// README's), each named and described from that one table, then one per exchange rate of
/// RiskModel::fx in code order ("exchange rate USD", key "fx.USD").
std::vector<RiskInputText> risk_input_texts(const RiskModel& model);

/// "purchase price and rental rate drawn apart (correlation 0)" or "... move together,
/// correlation 0.6 (Gaussian copula)".
std::string risk_correlation_text(const RiskModel& model);

/// The terminal summary of a Monte Carlo run `r` over `plan` (scenario `s`): how often the
/// owned option beats the compared one (a rental, or a pay-per-token API when the plan has no
/// rental), P10/P50/P90 of the NPV difference and of every option's total cost (plan
/// currency), and the distributions of `model`. When `r` compares nothing
/// (RiskResult::compared false) the probability and differences are left out and
/// `comparison_note` says why ("no rental holds the model: ..."). Throws nothing beyond
/// allocation.
std::string risk_text(const ResolvedScenario& s, const Plan& plan, const RiskResult& r,
                      const RiskModel& model, const std::string& comparison_note = "");

/// The same as JSON (nlohmann ordered keys, 2-space indent, newline-terminated): gputco
/// (stamp_json(stamp)), scenario,
/// currency, horizon_months, draws, seed, the compared pair, probability_buy_beats_rent,
/// npv_difference percentiles, per-option percentiles and the uncertain inputs. Without a
/// comparison the pair, probability and npv_difference are null and no_comparison holds
/// `comparison_note`.
std::string risk_json(const ResolvedScenario& s, const Plan& plan, const RiskResult& r,
                      const RiskModel& model, const JsonStamp& stamp,
                      const std::string& comparison_note = "");

}  // namespace gputco
