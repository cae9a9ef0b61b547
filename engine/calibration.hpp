// Decode-speed constants per backend family, and the least-squares fit that produces them.
//
// Model (DOMAIN "Measured reality"): 1 / tokens_per_s = bytes_per_token / (eta x bandwidth)
// + t0, with eta (share of peak bandwidth a backend's kernels reach) and t0 (fixed cost per
// decode step: kernel launches, synchronisation, sampling) per backend family. The constants
// in calibration.cpp come from fit_decode_constants on tests/data/reference/decode_measured.csv
// (test DecodeCalibration.constantsMatchTheMeasuredRows recomputes them; scripts/calibrate-decode
// prints them with the MAPE per family).
#pragma once

#include <vector>

#include "engine/hardware.hpp"

namespace gputco {

/// eta and t0 of one backend family.
struct DecodeConstants {
  double eta = 1;           ///< share of peak memory bandwidth reached, (0, 1]
  double t0_s = 0;          ///< fixed cost per decode step, seconds
  bool calibrated = false;  ///< false: chosen by reasoning, no measured rows behind it
};

/// The compiled-in constants of `backend`. cuda, metal, vulkan: calibrated. rocm, sycl: not
/// calibrated (no measured rows), see calibration.cpp. Never throws.
DecodeConstants decode_constants(Backend backend);

/// Extra time per decode step for each boundary between devices in a layer split
/// (activations copied between cards, streams synchronised), seconds. Fitted on the two
/// multi-card rows of decode_measured.csv (fit_split_boundary_s).
double layer_split_boundary_s();

/// Time of one all-reduce of a decode step's activations across `count` devices in tensor
/// parallel, seconds: ring all-reduce of 2 (count - 1) hops, each a link latency plus its
/// share of `message_bytes` over the link. NVLink (device.nvlink_gbps > 0): 1.5 us per hop;
/// PCIe: 6 us per hop at 32 GB/s (PCIe 4.0 x16, one direction). Not calibrated: chosen from
/// NCCL small-message latencies so that 8 cards over PCIe reach about a third of 8 NVLinked
/// cards on a 70B model (DOMAIN S11). Throws EngineError on count < 1 or negative bytes.
double tensor_parallel_allreduce_s(const Device& device, int count, double message_bytes);

/// Share of Device::fp16_tflops that prefill reaches, per backend. Not calibrated against
/// devices' FLOPS: llama.cpp pp512 rows reach ~0.6 of FP16 peak on Apple GPUs and GeForce
/// cards, but only 0.1-0.2 on A100/H100 (its quantized kernels do not use their FP16 peak).
double prefill_efficiency(Backend backend);

/// One measured decode row, reduced to what the fit needs.
struct DecodeSample {
  double bytes_per_token = 0;        ///< bytes read per decode step (estimated), bytes
  double bandwidth_gbps = 0;         ///< peak bandwidth of the device, GB/s
  double measured_tokens_per_s = 0;  ///< measured decode speed
};

/// Result of a fit: constants, and the mean absolute percentage error of the model with
/// them over the rows fitted.
struct DecodeFit {
  double eta = 0;
  double t0_s = 0;
  double mape = 0;  ///< fraction (0.08 = 8 %)
  int rows = 0;
};

/// Least squares on relative error: minimises sum ((x_i / eta + t0) / y_i - 1)^2 over
/// x_i = bytes / bandwidth (s) and y_i = 1 / measured tokens per s, a linear problem in
/// (1 / eta, t0) solved in closed form. Relative errors weigh a 5 tokens/s row like a
/// 300 tokens/s one. Throws EngineError on fewer than 2 rows, non-positive values, or a
/// degenerate or unphysical solution (eta outside (0, 1.2], t0 < 0).
DecodeFit fit_decode_constants(const std::vector<DecodeSample>& samples);

/// MAPE (fraction) of the decode model with `constants` over `samples`.
/// Throws EngineError on an empty set or non-positive values.
double decode_mape(const std::vector<DecodeSample>& samples, const DecodeConstants& constants);

/// One multi-device layer-split row: the model's time per token without boundary cost,
/// the boundaries (devices - 1), and the measurement.
struct SplitSample {
  double predicted_without_boundaries_s = 0;
  int boundaries = 0;
  double measured_tokens_per_s = 0;
};

/// Least squares on relative error for the per-boundary cost c: minimises
/// sum ((p_i + b_i c) / y_i - 1)^2; clamped at 0. Throws EngineError on an empty set.
double fit_split_boundary_s(const std::vector<SplitSample>& samples);

}  // namespace gputco
