// The GPU finder for serving engines (`gputco fit --engine E` without --gpu): every device an
// engine runs the request on, on the box of 1, 2, 4 or 8 GPUs that serves the most per GPU at
// the goal (engine/serving/serving.hpp), and the cost of a million tokens at the device's cheapest
// hourly rental, ranked cheapest first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hardware/finder.hpp"
#include "engine/serving/serving.hpp"

namespace gputco {

/// A device with the hourly rate it rents for, per GPU-hour, in one currency (the finder's
/// caller chooses and converts the catalog's offers), and where the rate comes from.
struct ServingOffer {
  Device device;
  std::optional<Price> rate_per_gpu_hour;
  std::string rate_source;       ///< provider and SKU of the rate ("" when none)
  std::string rate_observed_on;  ///< YYYY-MM-DD of the rate ("" when none)
  bool rate_stale = false;       ///< older than the caller's price age limit at its date
  /// What the reader should not miss about the choice (a cheaper stale offer passed over).
  std::vector<std::string> rate_notes = {};
};

/// One device's row: its box, its capacity at the goal, and the cost per million tokens.
struct ServingFinderRow {
  Device device;
  int count = 0;             ///< GPUs in the box chosen (0: none holds the model)
  std::string refusal;       ///< why the engine cannot serve it here ("" when it can)
  ServingCapacity capacity;  ///< meaningful when count > 0 and refusal is ""
  std::optional<Price> rate_per_gpu_hour;
  std::string rate_source;
  std::string rate_observed_on;  ///< as ServingOffer
  bool rate_stale = false;
  std::vector<std::string> rate_notes;
  /// InferenceX's price of a million tokens (DOMAIN V9): rate per GPU-hour x 1e6 / (3600 x
  /// tokens/s per GPU), output tokens and input + output tokens; nullopt without a rate.
  std::optional<double> cost_per_million_output_tokens;
  std::optional<double> cost_per_million_total_tokens;
};

/// The boxes the finder tries per device, smallest first.
inline const std::vector<int>& serving_finder_counts() {
  static const std::vector<int> counts = {1, 2, 4, 8};
  return counts;
}

/// Every offer's row: of the counts in serving_finder_counts() at which serving_capacity
/// succeeds, the one with the most output tokens/s per GPU, a box meeting the latency target
/// before one that does not; when no box meets it, the box (and layout) nearest it, its best
/// figure (nearer_latency_target) (refusal: the engine's format refusal, or the largest box's
/// "fits no layout" message), ordered: rows meeting the goal with a cost, cheapest per million
/// output tokens first; then those without a rate, most output tokens per GPU first; then rows
/// missing the latency target, nearest it first; then refusals, by device id. Ties by device
/// id. Throws EngineError on an invalid request (a
/// model or quant out of domain, tokens < 1).
/// The offers are estimated on `threads` threads (parallel_for, engine/base/parallel.hpp; each row
/// is its offer's alone, so the rows are the same for any thread count).
std::vector<ServingFinderRow> rank_serving(const ServingRequest& request,
                                           const std::vector<ServingOffer>& offers,
                                           const ServingGoal& goal, int threads = 1);

}  // namespace gputco
