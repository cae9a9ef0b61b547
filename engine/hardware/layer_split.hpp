// llama.cpp's layer split over a box of GPUs, equal or not (2 x Tesla M40 + a T4; an RTX 3090
// beside an RTX 4090): which layers each GPU holds, the memory of each GPU and of the host, and
// the decode and prefill speed of the stages taking turns.
//
// Placement as llama.cpp does it (src/llama-model.cpp load_tensors): the split proportions are
// --tensor-split when given, else each device's free memory; their running sums, normalised,
// are split points s_i; repeating layer il (0 .. n_layer - 1) and the output layer (il =
// n_layer) go to the first device i with s_i > il / (n_layer + 1) (std::upper_bound). The input
// layer (the token embedding) stays on the CPU. Every GPU allocates its own compute buffer (the
// one holding the output layer with the logits); the KV cache of a layer lives with the layer
// (src/llama-kv-cache.cpp: one buffer per device); a vision projector (libmtmd) goes on the
// first GPU.
#pragma once

#include <string>
#include <vector>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/speed.hpp"

namespace gputco {

/// One GPU's part of a layer split, memory in GiB.
struct GpuShare {
  Device device;
  int first_layer = 0;        ///< the first repeating layer it holds
  int layers = 0;             ///< repeating layers it holds (0: none)
  bool output_layer = false;  ///< holds the output layer (and so the logits)
  double weights_gib = 0;     ///< its layers' weights (+ the output matrix on the last)
  double kv_cache_gib = 0;    ///< its layers' KV cache, all streams
  double recurrent_state_gib = 0;
  double compute_buffer_gib = 0;  ///< compute_buffer_bytes, with the logits where the output is
  double projector_gib = 0;       ///< vision projector and image buffer (first GPU only)
  double total_gib = 0;
  double usable_gib = 0;  ///< usable_memory_gib of one such device
  double headroom_gib = 0;
  Verdict verdict = Verdict::does_not_fit;
};

/// The fit of a request on a box of GPUs in a layer split.
struct LayerSplitFit {
  std::vector<GpuShare> gpus;       ///< in the box's order
  std::vector<double> proportions;  ///< the split proportions used (summing to 1)
  bool proportions_given = false;   ///< from tensor_split (else free memory)
  double host_embedding_gib = 0;    ///< the token embedding in host RAM
  double total_gib = 0;             ///< sum of the GPUs' totals
  double usable_gib = 0;            ///< sum of the GPUs' usable memory
  /// The worst GPU's verdict: a layer lives whole on one GPU, so one full GPU stops the load
  /// (llama.cpp fails to allocate there) whatever room the others have.
  Verdict verdict = Verdict::does_not_fit;
};

/// Free memory of `device` as the runtime sees it at load (cudaMemGetInfo: the nameplate read
/// as GiB less the firmware's share and the driver context, policy.firmware_reserve_fraction
/// and policy.driver_reserve_mib; unified memory: its usable share), GiB: what llama.cpp's
/// default split is proportional to. Throws EngineError like usable_memory_gib.
double free_memory_gib(const Device& device, const MemoryPolicy& policy = {});

/// The split proportions: `tensor_split` (one non-negative weight per GPU, not all zero;
/// llama.cpp --tensor-split) normalised, or each GPU's free_memory_gib over their sum when it is
/// empty. Throws EngineError on an empty box, a tensor_split of another length, a negative or
/// non-finite weight, or weights summing to 0.
std::vector<double> layer_split_proportions(const std::vector<Device>& gpus,
                                            const std::vector<double>& tensor_split,
                                            const MemoryPolicy& policy = {});

/// The layer split of `request` over `gpus` (one entry per GPU, in the box's order): layers
/// placed as llama.cpp places them (see the file comment), each GPU's memory: weights of its
/// layers (the body, weights_bytes less the embedding and output matrices, spread evenly over
/// the layers; the output matrix on the GPU holding the output layer, and a tied embedding's
/// copy there too), the KV cache and recurrent state of its layers (in proportion to the
/// layers), its compute buffer, and on the first GPU the vision projector and image buffer;
/// verdicts per GPU as fit() gives them (total / usable against policy.fits_max_ratio and 1).
/// Throws EngineError on a bad request, an empty box, or a bad tensor_split.
LayerSplitFit fit_layer_split(const FitRequest& request, const std::vector<Device>& gpus,
                              const std::vector<double>& tensor_split = {},
                              const MemoryPolicy& policy = {});

/// Decode and prefill of a layer split whose stages take turns (DOMAIN "Measured reality":
/// a layer split keeps one card's bound): one decode step is the sum over the GPUs of the
/// bytes its layers read (weights_read_per_step_bytes and kv_cache_read_bytes, in proportion
/// to its layers; the output matrix on the last) / (eta x its bandwidth) plus its layers' fixed
/// cost (decode_fixed_s x layers / n_layer, / its power limit's compute share), plus
/// (stages - 1) x layer_split_boundary_s. The slowest card thus sets the pace of its own layers
/// only: two Tesla M40 and a T4 decode at a speed between theirs. Prefill likewise: each
/// stage's FLOPs at its own fp16_tflops x prefill_efficiency x compute share; 0 when any GPU
/// holding layers has no fp16_tflops. `request.device_count` and `split` are ignored (the box
/// is `split`'s GPUs). Throws EngineError like estimate_speed, or on a GPU without bandwidth.
SpeedEstimate estimate_layer_split_speed(const SpeedRequest& request, const LayerSplitFit& split);

/// The box as text: "2x tesla-m40 + 1x t4" (runs of the same id counted). Never throws.
std::string box_text(const std::vector<Device>& gpus);

}  // namespace gputco
