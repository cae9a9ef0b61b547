// Command-line options shared by the commands that use the serving model (`gputco
// throughput`, and `gputco fit --engine` without --gpu): the batch and latency-target forms,
// the engine, and the hourly rental rate a device is priced at.
#pragma once

#include <boost/program_options.hpp>
#include <string>

#include "engine/serving/serving.hpp"
#include "engine/serving/serving_finder.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/price_choice.hpp"

namespace gputco::cli {

/// The values of the goal options as parsed.
struct ServingGoalOptions {
  int batch = 0;
  bool max_batch = false;
  double tpot_ms = 0, ttft_ms = 0, user_tokens_per_s = 0;
};

/// Adds --tpot-ms, --ttft-ms and --user-tokens-per-s to `options` (stored in `values`).
void add_latency_options(boost::program_options::options_description& options,
                         ServingGoalOptions& values);

/// The goal: --batch N, --max-batch, or the latency targets (which combine); exactly one form
/// when `require_one`, else the latency targets or (none given) the most memory allows.
/// Throws UsageError naming `command` and the option on a bad value or a wrong combination.
ServingGoal serving_goal(const std::string& command, const ServingGoalOptions& values,
                         const boost::program_options::variables_map& vm, bool require_one);

/// Refuses a per-token target (--tpot-ms, --user-tokens-per-s) for requests of one output
/// token, which have no time per output token: throws UsageError naming `command`.
void check_per_token_target(const std::string& command, const ServingGoal& goal, int output_tokens);

/// The engine named by --engine. Throws UsageError when unknown.
ServingEngine serving_engine(const std::string& command, const std::string& text);

/// The on-demand hourly rental of `device` a plan would take (choose_rental_offer with `basis`:
/// price basis, freshness before cheapness, as of basis.as_of), per GPU-hour in USD (converted
/// at the catalog's rate of that date), with its provider, SKU, date, whether it is stale
/// (older than basis.max_age_days) and the choice's warnings; an offer in a currency without a
/// USD rate is left out. nullopt rate when the device has none.
ServingOffer serving_offer(const Catalog& catalog, const Device& device, const PriceBasis& basis);

}  // namespace gputco::cli
