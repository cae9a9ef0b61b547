// Memory for fine-tuning a model: weights, gradients, optimizer state, activations, adapters.
//
// Sources:
// - Mixed-precision Adam: 16-bit weights and gradients, fp32 master weights and two fp32 Adam
//   moments = 2 + 2 + 4 + 4 + 4 = 16 bytes per trained parameter (Rajbhandari et al. 2020,
//   "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", section 3.1:
//   "2Ψ + 2Ψ + 12Ψ = 16Ψ bytes").
// - Activations: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//   Transformer Models", equation (1): s b h (34 + 5 a s / h) bytes per layer for 16-bit
//   activations without parallelism (s sequence, b micro-batch, h hidden, a heads). The
//   5 a s / h term is the attention score matrices; flash attention never stores them, which
//   is the paper's selective recomputation: 34 s b h. With full activation recomputation
//   (gradient checkpointing) only each layer's input is kept, 2 s b h per layer (section 4),
//   plus one layer's full activations while it is recomputed in the backward pass.
// - LoRA (Hu et al. 2021): a d_in x d_out matrix gains A (d_in x r) and B (r x d_out), r
//   (d_in + d_out) trainable parameters. Llama 2 7B, r = 16 on q,k,v,o,gate,up,down: 39,976,960
//   (what PEFT's print_trainable_parameters reports).
// - QLoRA (Dettmers et al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs"): the frozen
//   base in 4-bit NormalFloat with one fp32 absmax per 64 weights = 4.5 bits per weight (the
//   bitsandbytes/transformers default); with double quantization 8-bit constants plus one fp32
//   per 256 blocks = 4 + 8/64 + 32/(64 x 256) = 4.127 bits (the paper: "from 0.5 bits to 0.127
//   bits per parameter"). Only linear layers are quantized: the token embedding and the output
//   matrix stay at 16 bits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/hardware.hpp"

namespace gputco {

/// How the model is fine-tuned.
enum class FinetuneMethod {
  full,  ///< every parameter trained, mixed-precision Adam
  lora,  ///< frozen 16-bit base, trained low-rank adapters
  qlora  ///< frozen 4-bit NF4 base, trained low-rank adapters
};
/// "full", "lora", "qlora". Never throws.
std::string to_string(FinetuneMethod method);
/// Parses the text forms above; nullopt for anything else. Never throws.
std::optional<FinetuneMethod> parse_finetune_method(const std::string& text);

/// One fine-tuning run: model, method, batch shape and memory-saving choices.
struct FinetuneRequest {
  ModelArch model;
  FinetuneMethod method = FinetuneMethod::full;
  int sequence_tokens = 2048;          ///< tokens per training sequence
  int micro_batch = 1;                 ///< sequences per device per step
  bool gradient_checkpointing = true;  ///< full activation recomputation
  bool flash_attention = true;         ///< attention scores never stored
  int lora_rank = 16;                  ///< r of every adapter (lora, qlora)
  bool double_quant = false;           ///< QLoRA double quantization (4.127 instead of 4.5 bits)
};

/// Memory of one fine-tuning run on one device, GiB (2^30 bytes).
struct FinetuneMemory {
  double trainable_params_b = 0;   ///< parameters that receive gradients, billions
  double weights_gib = 0;          ///< working weights: 16-bit (full, lora) or NF4 base (qlora)
  double gradients_gib = 0;        ///< 16-bit (full) or fp32 adapter gradients
  double master_weights_gib = 0;   ///< fp32 copy of the trained weights (full only)
  double optimizer_state_gib = 0;  ///< Adam: two fp32 moments per trained parameter
  double adapters_gib = 0;         ///< fp32 adapter weights (lora, qlora)
  double activations_gib = 0;      ///< kept for the backward pass, incl. fp32 logits
  /// weights + gradients + master weights + optimizer state + adapters: what sharding over
  /// several devices (FSDP / ZeRO-3) divides.
  double states_gib = 0;
  double total_gib = 0;  ///< states + activations
};

/// LoRA trainable parameters, billions: r (d_in + d_out) for the q, k, v, o projections
/// (q, o: hidden x heads * head_dim; k, v: hidden x kv_heads * head_dim) and the gated MLP's
/// gate, up, down (hidden x ffn). The MLP width is not in the catalog: ffn = (non-expert,
/// non-embedding parameters per layer - attention - 2 hidden norm weights) / (3 hidden), which
/// gives 11,010 for Llama 2 7B (config: 11,008). Routed experts are not adapted. MLA models
/// (no kv_heads): attention counted as four hidden x hidden projections (an approximation).
/// Throws EngineError on an invalid model or rank < 1.
double lora_params_b(const ModelArch& model, int rank);

/// Activation memory of one training step, bytes (16-bit activations; Korthikanti et al.
/// 2022, eq. 1, see the file comment): per layer s b h (34 + 5 a s / h), the 5 a s / h term
/// dropped with flash attention; with gradient checkpointing 2 s b h per layer plus one
/// layer's full activations. Plus the fp32 logits, 4 s b vocab (vocab 128,256 when unknown).
/// Throws EngineError on non-positive sequence or batch, or an invalid model.
double activation_bytes(const FinetuneRequest& request);

/// Memory of `request` on one device (see FinetuneMemory):
/// full: weights 2, gradients 2, master weights 4, Adam moments 8 bytes per parameter
/// (16 bytes: a 7.0B model needs 104.3 GiB before activations).
/// lora: 16-bit frozen base 2 bytes per parameter; adapters fp32 4 + gradients 4 + moments 8.
/// qlora: base linear layers at 4.5 bits (4.127 with double_quant), embedding and output at
/// 16 bits; adapters as lora.
/// Throws EngineError on an invalid model, sequence or batch, or rank < 1.
FinetuneMemory estimate_finetune_memory(const FinetuneRequest& request);

/// How many times the memory of serving the model a fine-tuning run needs: training total /
/// inference total (DOMAIN M1: "training or fine-tuning needs 2-4x the memory of inference").
/// Throws EngineError when the inference total is not positive.
double training_to_inference_ratio(const FinetuneMemory& training,
                                   const MemoryBreakdown& inference);

/// The fit of a fine-tuning run on `count` devices.
struct FinetuneFit {
  Device device;
  int count = 1;
  double per_device_gib = 0;  ///< states / count + activations
  double usable_gib = 0;      ///< per device
  double headroom_gib = 0;    ///< per device: usable - needed
  Verdict verdict = Verdict::does_not_fit;
};

/// Fits a run on `count` devices, data parallel with fully sharded states (FSDP / ZeRO-3):
/// each device holds states_gib / count and the activations of its own micro-batch.
/// Verdict as fit(): needed / usable at or below policy.fits_max_ratio fits, up to 1.0 tight.
/// Throws EngineError on count < 1 or a bad device or policy (see usable_memory_gib).
FinetuneFit fit_finetune(const FinetuneMemory& memory, const Device& device, int count,
                         const MemoryPolicy& policy = {});

/// Every device with `count` of it (0: the fewest of 1..8 that hold the run, else 1; unified-
/// memory devices, whole computers, only 1), best
/// first: fits, tight, does not fit; then fewer devices, more FP16 TFLOPS, device id.
/// Throws EngineError like fit_finetune.
std::vector<FinetuneFit> rank_finetune(const FinetuneMemory& memory,
                                       const std::vector<Device>& devices, int count,
                                       const MemoryPolicy& policy = {});

}  // namespace gputco
