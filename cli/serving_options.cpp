#include "cli/serving_options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cli/commands.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

void check_positive(const std::string& command, const char* option, double value) {
  if (!std::isfinite(value) || value <= 0) {
    throw UsageError(command + ": --" + option + " must be a positive number, got " +
                     fmt::format("{}", value));
  }
}

}  // namespace

void add_latency_options(po::options_description& options, ServingGoalOptions& v) {
  options.add_options()("tpot-ms", po::value(&v.tpot_ms)->value_name("MS"),
                        "time per output token at the 99th percentile: the largest batch "
                        "meeting it")("ttft-ms", po::value(&v.ttft_ms)->value_name("MS"),
                                      "time to first token under load at the 99th percentile")(
      "user-tokens-per-s", po::value(&v.user_tokens_per_s)->value_name("R"),
      "per-user speed (1 / mean TPOT) at least R tokens/s");
}

ServingGoal serving_goal(const std::string& command, const ServingGoalOptions& v,
                         const po::variables_map& vm, bool require_one) {
  const bool batch = vm.count("batch") > 0;
  const bool latency =
      vm.count("tpot-ms") > 0 || vm.count("ttft-ms") > 0 || vm.count("user-tokens-per-s") > 0;
  const int forms = (batch ? 1 : 0) + (v.max_batch ? 1 : 0) + (latency ? 1 : 0);
  if (forms > 1 || (require_one && forms == 0)) {
    throw UsageError(command +
                     ": give exactly one of --batch N, --max-batch, or latency targets "
                     "(--tpot-ms MS [--ttft-ms MS] | --user-tokens-per-s R)");
  }
  ServingGoal g;
  if (batch) {
    if (v.batch < 1 || v.batch > 1'000'000) {
      throw UsageError(command + ": --batch must be between 1 and 1000000, got " +
                       std::to_string(v.batch));
    }
    g.mode = ServingGoal::Mode::batch;
    g.batch = v.batch;
  } else if (latency) {
    g.mode = ServingGoal::Mode::latency;
    if (vm.count("tpot-ms")) {
      check_positive(command, "tpot-ms", v.tpot_ms);
      g.tpot_p99_ms = v.tpot_ms;
    }
    if (vm.count("ttft-ms")) {
      check_positive(command, "ttft-ms", v.ttft_ms);
      g.ttft_p99_ms = v.ttft_ms;
    }
    if (vm.count("user-tokens-per-s")) {
      check_positive(command, "user-tokens-per-s", v.user_tokens_per_s);
      g.user_tokens_per_s = v.user_tokens_per_s;
    }
  } else {
    g.mode = ServingGoal::Mode::max_batch;
  }
  return g;
}

void check_per_token_target(const std::string& command, const ServingGoal& goal,
                            int output_tokens) {
  if (!has_time_per_output_token(output_tokens) && (goal.tpot_p99_ms || goal.user_tokens_per_s)) {
    throw UsageError(command +
                     ": --tpot-ms and --user-tokens-per-s need at least 2 output tokens per "
                     "request (one output token has no time per output token); use --ttft-ms");
  }
}

ServingEngine serving_engine(const std::string& command, const std::string& text) {
  const auto engine = parse_serving_engine(text);
  if (!engine) {
    throw UsageError(command + ": --engine must be llama.cpp, vllm, sglang or tensorrt-llm, got '" +
                     text + "'");
  }
  return *engine;
}

ServingOffer serving_offer(const Catalog& catalog, const Device& device, const PriceBasis& basis) {
  ServingOffer offer;
  offer.device = device;
  std::vector<RentalOffer> candidates;
  for (const auto& r : catalog.rental_offers(basis.as_of, device.id, "hourly", "on_demand")) {
    const auto fx = catalog.fx_rate(r.currency, "USD", basis.as_of);
    if (!fx) continue;
    candidates.push_back(r);
  }
  const auto in_usd = [&](const RentalOffer& r) {
    return r.amount_per_device() * catalog.fx_rate(r.currency, "USD", basis.as_of)->rate;
  };
  const auto choice =
      choose_rental_offer(candidates, basis, in_usd, "on_demand hourly offers of " + device.id);
  if (!choice) return offer;
  const RentalOffer& r = choice->row;
  offer.rate_per_gpu_hour = Price{in_usd(r), "USD"};
  offer.rate_source = r.provider + " " + r.sku + " (" + r.provenance.observed_on + ")";
  offer.rate_observed_on = r.provenance.observed_on;
  offer.rate_stale = days_between(r.provenance.observed_on, basis.as_of) > basis.max_age_days;
  // The finder has no prefer_fresh_prices key: the choice's hint to a plan's reader goes.
  for (std::string note : choice->warnings) {
    const std::string plan_hint = " (prefer_fresh_prices = false takes it)";
    if (const auto at = note.find(plan_hint); at != std::string::npos)
      note.erase(at, plan_hint.size());
    offer.rate_notes.push_back(std::move(note));
  }
  return offer;
}

}  // namespace gputco::cli
