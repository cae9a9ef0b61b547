// Decode-speed constants per backend family, and the least-squares fit that produces them.
//
// Model (DOMAIN "Measured reality", refined): the time of one decode step is
//   bytes_per_token / (eta_m x bandwidth) + dense_layers x layer_s + moe_layers x moe_layer_s
// - eta_m: share of peak memory bandwidth the backend's kernels reach, by memory class:
//   `eta` on GDDR and LPDDR memory, `eta_hbm` on HBM. HBM parts pair far more bandwidth with
//   each SM (A100 2039 GB/s / 108 SMs = 19 GB/s, H100 SXM 3350 / 132 = 25; RTX 4090 1008 / 128
//   = 7.9, RTX 5090 1792 / 170 = 10.5; SM counts from NVIDIA's architecture whitepapers), so a
//   matrix-vector kernel must keep 2-3x more bytes in flight per SM to saturate them (Little's
//   law: bandwidth x latency); llama.cpp's single-stream kernels do not. The memory type is
//   the device table's proxy for that ratio.
//   Measured: A100 and H100 reach ~0.44 of peak on the same build where GeForce cards reach
//   ~0.83 (llama.cpp disc. #15013, rows of tests/data/reference/decode_measured.csv).
// - layer_s, moe_layer_s: the fixed cost of a step (kernel launches, synchronisation, the
//   small latency-bound kernels: norms, RoPE, softmax) is paid per kernel, and a model runs a
//   fixed set of kernels per layer; an MoE layer runs about twice as many (router, top-k,
//   weights, three expert mat-muls with biases, the weighted sum). Measured: gpt-oss 120B
//   (36 MoE layers) takes 1.55 ms more per token than gpt-oss 20B (24 layers) on GB202 cards
//   with the same expert bytes per layer (llama.cpp disc. #15396).
// eta, eta_hbm, layer_s and moe_layer_s per backend family; the constants in calibration.cpp
// come from fit_decode_constants on tests/data/reference/decode_measured.csv (test
// DecodeCalibration.constantsMatchTheMeasuredRows recomputes them; scripts/calibrate-decode
// prints them with the in-sample and leave-one-out MAPE per family).
#pragma once

#include <vector>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// The decode constants of one backend family.
struct DecodeConstants {
  double eta = 1;           ///< share of peak bandwidth reached on GDDR/LPDDR memory, (0, 1.2]
  double eta_hbm = 1;       ///< share of peak bandwidth reached on HBM memory, (0, 1.2]
  double layer_s = 0;       ///< fixed cost per dense layer per decode step, seconds
  double moe_layer_s = 0;   ///< fixed cost per MoE layer per decode step, seconds
  bool calibrated = false;  ///< false: chosen by reasoning, no measured rows behind it
};

/// The compiled-in constants of `backend`. cuda: all four fitted. metal: eta and both layer
/// costs fitted, eta_hbm from CUDA's HBM/GDDR ratio (no Apple part has HBM). vulkan: eta and
/// both layer costs fitted (MoE rows since issue #41), eta_hbm from CUDA's ratio (no HBM
/// rows). rocm,
/// sycl: not calibrated (no measured rows), see calibration.cpp. Never throws.
DecodeConstants decode_constants(Backend backend);

/// True when the device's memory is HBM (Device::memory_type "HBM2", "HBM2e", "HBM3",
/// "HBM3e", ...: the prefix "HBM", any case). Never throws.
bool is_hbm(const Device& device);

/// The share of `device`'s peak bandwidth a decode step reaches with `c`: c.eta_hbm on HBM,
/// c.eta otherwise. Never throws.
double decode_eta(const DecodeConstants& c, const Device& device);

/// The fixed cost of one decode step of `model` with `c`, seconds: layers x c.layer_s for a
/// dense model, layers x c.moe_layer_s for an MoE one (every layer counted as MoE: true of
/// gpt-oss and Qwen3 MoE; DeepSeek V3's first 3 of 61 layers are dense, a 2 % overcount).
/// Throws EngineError on a model without layers.
double decode_fixed_s(const DecodeConstants& c, const ModelArch& model);

/// Extra time per decode step for each boundary between devices in a layer split
/// (activations copied between cards, streams synchronised), seconds, per backend family.
/// Fitted on the multi-card rows of decode_measured.csv (fit_split_boundary_s). CUDA: two
/// rows (2 x RTX 4090, 6 x RTX 3090 on Llama 3 70B) resolve no cost beyond the single-card
/// model: the physical floor, layer_split_boundary_floor_s; ROCm, SYCL and Metal take it
/// (not measured). Vulkan: one row (2 x RX 7900 XTX on Llama 2 7B Q4_0, 129.8 tokens/s where
/// one card gives 151-173) gives 1.74 ms: ggml-vulkan copies a tensor between devices through
/// host memory and waits on a fence on each side. Never throws.
double layer_split_boundary_s(Backend backend);

/// The least a layer-split boundary costs per decode step, seconds: 25 us, two small PCIe
/// transfers of ~10 us latency each (the hidden state staged through host memory: GeForce
/// cards have no peer-to-peer) and an event synchronisation. Not measured: a lower bound
/// from PCIe latency, so that a fit the rows cannot resolve stays physical. Never throws.
double layer_split_boundary_floor_s();

/// Whether a group of `group` devices of `device` talk over NVLink: the device has a link
/// (nvlink_gbps > 0) and the group fits in one NVLink domain (Device::nvlink_domain_gpus, 0 =
/// any group). A group spanning domains goes over PCIe: a ring is as fast as its slowest link
/// (an RTX 3090 bridge joins 2 cards, so 4 cards of two bridged pairs ring over PCIe between
/// the pairs). A group of 1 needs no link (false). Never throws.
bool nvlink_joins(const Device& device, int group);

/// Time of one all-reduce of a decode step's activations across `count` devices in tensor
/// parallel, seconds: ring all-reduce of 2 (count - 1) hops, each a link latency plus its
/// share of `message_bytes` over the link. NVLink (nvlink_joins(device, count)): 1.5 us per
/// hop at device.nvlink_gbps; else PCIe: 6 us per hop at 32 GB/s (PCIe 4.0 x16, one
/// direction). Not calibrated: chosen from NCCL small-message latencies so that 8 cards over
/// PCIe reach about a third of 8 NVLinked cards on a 70B model (DOMAIN S11). Throws
/// EngineError on count < 1 or negative bytes.
double tensor_parallel_allreduce_s(const Device& device, int count, double message_bytes);

/// One point-to-point send of `bytes` between two devices of a group of `group` devices of
/// `device` (a pipeline stage's activations to the next stage, an expert-parallel dispatch),
/// seconds: one hop of the ring above, a link latency plus the bytes over the link; NVLink
/// when nvlink_joins(device, group), else PCIe. Throws EngineError on group < 2 or negative
/// bytes.
double device_send_s(const Device& device, int group, double bytes);

/// Share of Device::fp16_tflops that prefill reaches, per backend. Not calibrated against
/// devices' FLOPS: llama.cpp pp512 rows reach ~0.6 of FP16 peak on Apple GPUs and GeForce
/// cards, but only 0.1-0.2 on A100/H100 (its quantized kernels do not use their FP16 peak).
double prefill_efficiency(Backend backend);

/// One measured decode row, reduced to what the fit needs.
struct DecodeSample {
  double bytes_per_token = 0;        ///< bytes read per decode step (estimated), bytes
  double bandwidth_gbps = 0;         ///< peak bandwidth of the device, GB/s
  bool hbm = false;                  ///< the device's memory is HBM (is_hbm)
  int dense_layers = 0;              ///< the model's dense layers
  int moe_layers = 0;                ///< the model's MoE layers
  double measured_tokens_per_s = 0;  ///< measured decode speed
};

/// The decode step time `c` predicts for `s`, seconds:
/// bytes / (eta_m x bandwidth) + dense_layers x layer_s + moe_layers x moe_layer_s.
/// Throws EngineError on non-positive bytes, bandwidth or eta, or no layers.
double decode_step_s(const DecodeConstants& c, const DecodeSample& s);

/// Result of a fit: constants, and the mean absolute percentage error of decode speed
/// (|estimated / measured - 1|, averaged) with them over the rows fitted.
struct DecodeFit {
  DecodeConstants constants;
  double mape = 0;  ///< in-sample, fraction (0.08 = 8 %)
  int rows = 0;
  bool hbm_fitted = false;  ///< eta_hbm fitted (HBM rows present), else from the shape
  bool moe_fitted = false;  ///< both layer costs fitted, else one from the shape
};

/// Least squares on relative error: minimises sum (p_i / y_i - 1)^2 over the predicted step
/// time p_i = a x_i (1 - h_i) + a_hbm x_i h_i + l d_i + m e_i (x = bytes / bandwidth, h = hbm,
/// d, e = dense and MoE layers) and y_i = 1 / measured tokens per s: a linear problem in
/// (1 / eta, 1 / eta_hbm, layer_s, moe_layer_s) solved in closed form (normal equations).
/// Relative errors weigh a 5 tokens/s row like a 300 tokens/s one. A parameter no row
/// identifies (no HBM row; no MoE row, or no dense row) is tied to another by `shape`:
/// eta_hbm = eta x shape.eta_hbm / shape.eta, moe_layer_s = layer_s x shape.moe_layer_s /
/// shape.layer_s (or the reverse). Throws EngineError on fewer rows than parameters,
/// non-positive values, a degenerate system, or an unphysical solution (an eta outside
/// (0, 1.2], a negative layer cost), or a shape without positive eta, eta_hbm and layer costs.
DecodeFit fit_decode_constants(const std::vector<DecodeSample>& samples,
                               const DecodeConstants& shape);

/// Leave-one-out MAPE (fraction): each row predicted by fit_decode_constants(samples without
/// it, shape), averaged. The out-of-sample error of the model form on these rows.
/// Throws EngineError like fit_decode_constants on any of the refits.
double decode_loo_mape(const std::vector<DecodeSample>& samples, const DecodeConstants& shape);

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
/// sum ((p_i + b_i c) / y_i - 1)^2; clamped at layer_split_boundary_floor_s. Throws
/// EngineError on an empty set.
double fit_split_boundary_s(const std::vector<SplitSample>& samples);

}  // namespace gputco
