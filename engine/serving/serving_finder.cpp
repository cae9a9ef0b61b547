#include "engine/serving/serving_finder.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "engine/base/error.hpp"
#include "engine/base/parallel.hpp"
#include "engine/hardware/model_bytes.hpp"

namespace gputco {

namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kMillion = 1e6;

/// Sort key: the group (0 met with a cost, 1 met without a rate, 2 target missed, 3 refused),
/// the kind of miss (missing only the TTFT before missing a per-token target), then the figure
/// that orders the group (ascending: for a missed target the p99 TTFT or TPOT reached, nearest
/// first, as nearer_latency_target), then the id.
std::tuple<int, int, double, std::string> order(const ServingFinderRow& r) {
  const ServingCapacity& c = r.capacity;
  if (!r.refusal.empty()) return {3, 0, 0.0, r.device.id};
  if (!c.target_met) {
    const bool ttft = c.missed == LatencyMiss::ttft;
    return {2, ttft ? 0 : 1, ttft ? c.ttft_p99_ms : c.tpot_p99_ms, r.device.id};
  }
  if (r.cost_per_million_output_tokens) {
    return {0, 0, *r.cost_per_million_output_tokens, r.device.id};
  }
  return {1, 0, -c.output_tokens_per_s_per_gpu, r.device.id};
}

}  // namespace

std::vector<ServingFinderRow> rank_serving(const ServingRequest& request,
                                           const std::vector<ServingOffer>& offers,
                                           const ServingGoal& goal, int threads) {
  validate_model(request.model);
  validate_quant(request.quant);
  GPUTCO_REQUIRE(request.input_tokens >= 1 && request.output_tokens >= 1,
                 "input and output tokens must be at least 1");
  std::vector<ServingFinderRow> rows(offers.size());
  parallel_for(offers.size(), threads, [&](size_t index, int) {
    const ServingOffer& offer = offers[index];
    ServingFinderRow& row = rows[index];
    row.device = offer.device;
    row.rate_per_gpu_hour = offer.rate_per_gpu_hour;
    row.rate_source = offer.rate_source;
    row.rate_observed_on = offer.rate_observed_on;
    row.rate_stale = offer.rate_stale;
    row.rate_notes = offer.rate_notes;
    ServingRequest r = request;
    if (r.engine == ServingEngine::llama_cpp) r.backend = default_backend(offer.device);
    const FormatSupport support = format_support(r.engine, r.quant.id, r.kv_cache, offer.device);
    if (!support.refusal.empty()) {
      row.refusal = support.refusal;
      return;
    }
    // Every box that holds the model; the one that serves the most per GPU at the goal wins
    // (a box meeting the target beats one missing it; none meeting it, the one nearest it,
    // with the best figure of every box and layout; ties keep the smaller box).
    for (int count : serving_finder_counts()) {
      try {
        const ServingCapacity c = serving_capacity(r, offer.device, count, ServingLayout{}, goal);
        const ServingCapacity& kept = row.capacity;
        const bool better =
            row.count == 0 || (c.target_met && !kept.target_met) ||
            (c.target_met && kept.target_met &&
             c.output_tokens_per_s_per_gpu > kept.output_tokens_per_s_per_gpu * (1 + 1e-9)) ||
            (!c.target_met && !kept.target_met && nearer_latency_target(c, kept));
        if (better) {
          row.capacity = c;
          row.count = count;
        }
      } catch (const EngineError& e) {
        if (row.count == 0) row.refusal = e.what();
      }
    }
    if (row.count > 0) row.refusal.clear();
    const double per_gpu = row.capacity.output_tokens_per_s_per_gpu;
    if (row.count > 0 && row.rate_per_gpu_hour && per_gpu > 0) {
      const double rate = row.rate_per_gpu_hour->amount;
      row.cost_per_million_output_tokens = rate * kMillion / (kSecondsPerHour * per_gpu);
      row.cost_per_million_total_tokens =
          rate * kMillion / (kSecondsPerHour * row.capacity.total_tokens_per_s_per_gpu);
    }
  });
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return order(a) < order(b); });
  return rows;
}

}  // namespace gputco
