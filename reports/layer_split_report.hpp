// fit --gpus: a request on a box of GPUs in llama.cpp's layer split
// (engine/hardware/layer_split.hpp), as text and JSON: each GPU's layers and memory, the host's,
// the box's verdict, speed, power and price. They format what the engine computed, never compute.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hardware/finder.hpp"
#include "engine/hardware/layer_split.hpp"
#include "reports/json_stamp.hpp"

namespace gputco {

/// What the report shows.
struct LayerSplitReport {
  FitRequest request;
  LayerSplitFit fit;
  SpeedEstimate speed;
  Backend backend = Backend::cuda;
  int prompt_tokens = 0;
  std::vector<double> tensor_split;  ///< as given (empty: by free memory)
  /// The box's price: the sum of its cards' latest prices in one condition (nullopt when a card
  /// has none, or the currencies differ).
  std::optional<Price> price_new;
  std::optional<Price> price_used;
  double power_at_load_w = 0;  ///< sum of the cards' load_power_w (0 when one is unknown)
  JsonStamp stamp;
};

/// The box as text: the request, one row per GPU (layers, weights, KV cache, compute buffer,
/// vision, total, usable, headroom in GiB, verdict), the box's row, the host's RAM, decode and
/// prefill, power at load and price, and how the split was made.
std::string layer_split_text(const LayerSplitReport& report);

/// The box as JSON: { gputco, mode: "inference", model, quant, context_tokens,
/// concurrent_streams, kv_cache, split: "layer", box (box_text), tensor_split ([...] or null),
/// backend, gpus: [{ gpu, first_layer, layers, output_layer, weights_gib, kv_cache_gib,
/// recurrent_state_gib, compute_buffer_gib, projector_gib, total_gib, usable_gib, headroom_gib,
/// verdict, bandwidth_gbps, power_limit_w (or null), load_power_w }], host_embedding_gib,
/// total_gib, usable_gib, verdict, decode_tokens_per_s, aggregate_tokens_per_s,
/// prefill_tokens_per_s, time_to_first_token_s, bytes_per_token_gb, power_at_load_w,
/// price_new: {amount, currency} | null, price_used, note }. No NaN or infinity: null.
std::string layer_split_json(const LayerSplitReport& report);

}  // namespace gputco
