#include "engine/serving_finder.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "engine/error.hpp"
#include "engine/model_bytes.hpp"
#include "engine/parallel.hpp"

namespace gputco {

namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kMillion = 1e6;

/// Sort key: the group (0 met with a cost, 1 met without a rate, 2 target missed, 3 refused),
/// then the figure that orders the group (ascending), then the id.
std::tuple<int, double, std::string> order(const ServingFinderRow& r) {
  if (!r.refusal.empty()) return {3, 0.0, r.device.id};
  if (!r.capacity.target_met) return {2, -r.capacity.output_tokens_per_s_per_gpu, r.device.id};
  if (r.cost_per_million_output_tokens) return {0, *r.cost_per_million_output_tokens, r.device.id};
  return {1, -r.capacity.output_tokens_per_s_per_gpu, r.device.id};
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
    ServingRequest r = request;
    if (r.engine == ServingEngine::llama_cpp) r.backend = default_backend(offer.device);
    const FormatSupport support = format_support(r.engine, r.quant.id, r.kv_cache, offer.device);
    if (!support.refusal.empty()) {
      row.refusal = support.refusal;
      return;
    }
    // Every box that holds the model; the one that serves the most per GPU at the goal wins
    // (a box meeting the target beats one missing it; ties keep the smaller box).
    for (int count : serving_finder_counts()) {
      try {
        const ServingCapacity c = serving_capacity(r, offer.device, count, ServingLayout{}, goal);
        const bool better =
            row.count == 0 || (c.target_met && !row.capacity.target_met) ||
            (c.target_met == row.capacity.target_met &&
             c.output_tokens_per_s_per_gpu > row.capacity.output_tokens_per_s_per_gpu * (1 + 1e-9));
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
