// How fast: decode (memory-bandwidth bound) and prefill (compute bound).
#pragma once

#include "engine/fit.hpp"
#include "engine/hardware.hpp"

namespace gputco {

/// Decode and prefill estimate for one configuration.
struct SpeedEstimate {
  double bytes_per_token_gb = 0;        ///< weights + KV cache read per decode step, GB
  double decode_tokens_per_s = 0;       ///< per stream
  double aggregate_tokens_per_s = 0;    ///< all streams together
  double prefill_tokens_per_s = 0;      ///< prompt tokens per second (0 if compute unknown)
  double time_to_first_token_s = 0;     ///< for SpeedRequest::prompt_tokens (0 if unknown)
};

struct SpeedRequest {
  FitRequest fit;
  int device_count = 1;
  SplitMode split = SplitMode::layer;
  Backend backend = Backend::cuda;
  int prompt_tokens = 0;  ///< for time to first token; 0 = not asked
};

/// Estimates decode and prefill speed of `request` on `device`.
/// Model: 1 / tokens_per_s = bytes_per_token / (eta x bandwidth) + t0, with eta and t0
/// per backend family, calibrated on measured llama.cpp decode speeds
/// (tests/data/reference/decode_measured.csv). Throws EngineError on bad inputs.
SpeedEstimate estimate_speed(const SpeedRequest& request, const Device& device);

}  // namespace gputco
