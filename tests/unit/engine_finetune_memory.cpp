// Fine-tuning memory: hand-computed values for full fine-tuning (mixed-precision Adam), LoRA,
// QLoRA and activations, and the ratio against inference memory (DOMAIN M1).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/hardware/finetune.hpp"
#include "tests/support/reference_data.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

using test::reference_device;
using test::reference_model;
using test::reference_quant;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// A dense 7.0B-parameter model shaped like Llama 2 7B, vocabulary unknown (so every
/// parameter is a body parameter).
ModelArch seven_b() {
  ModelArch m;
  m.id = "seven-b";
  m.params_b = 7.0;
  m.active_params_b = 7.0;
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 32;
  m.head_dim = 128;
  m.vocab_size = 32000;
  return m;
}

FinetuneRequest run(const ModelArch& model, FinetuneMethod method) {
  FinetuneRequest r;
  r.model = model;
  r.method = method;
  return r;
}

// DOMAIN M1: training needs gradients and optimizer state besides the weights. Mixed-precision
// Adam: 2 (bf16 weights) + 2 (bf16 gradients) + 4 (fp32 master) + 8 (two fp32 moments)
// = 16 bytes per parameter: 7.0e9 x 16 = 112e9 bytes = 104.31 GiB before activations.
TEST(FinetuneMemory, fullFineTuneIs16BytesPerParameter) {
  const FinetuneMemory m = estimate_finetune_memory(run(seven_b(), FinetuneMethod::full));
  EXPECT_NEAR(m.weights_gib, 14e9 / kGiB, 1e-9);
  EXPECT_NEAR(m.gradients_gib, 14e9 / kGiB, 1e-9);
  EXPECT_NEAR(m.master_weights_gib, 28e9 / kGiB, 1e-9);
  EXPECT_NEAR(m.optimizer_state_gib, 56e9 / kGiB, 1e-9);
  EXPECT_NEAR(m.states_gib, 104.31, 0.005);
  EXPECT_DOUBLE_EQ(m.adapters_gib, 0);
  EXPECT_DOUBLE_EQ(m.trainable_params_b, 7.0);
  EXPECT_NEAR(m.total_gib, m.states_gib + m.activations_gib, 1e-9);
}

// Korthikanti et al. 2022, eq. (1), s = 2048, b = 1, h = 4096, a = 32, L = 32, vocab 32,000:
// with checkpointing 2 s b h L + one layer's 34 s b h + fp32 logits 4 s b V
// = 536,870,912 + 285,212,672 + 262,144,000 bytes.
TEST(FinetuneMemory, activationsWithAndWithoutCheckpointing) {
  FinetuneRequest r = run(seven_b(), FinetuneMethod::full);
  r.sequence_tokens = 2048;
  EXPECT_DOUBLE_EQ(activation_bytes(r), 536'870'912.0 + 285'212'672.0 + 262'144'000.0);
  // Without checkpointing, flash attention on: 34 s b h x 32 layers + logits.
  r.gradient_checkpointing = false;
  EXPECT_DOUBLE_EQ(activation_bytes(r), 285'212'672.0 * 32 + 262'144'000.0);
  // And without flash attention the 5 a s / h term: 34 + 5 x 32 x 2048 / 4096 = 114 per s b h.
  r.flash_attention = false;
  EXPECT_DOUBLE_EQ(activation_bytes(r), 2048.0 * 4096 * 114 * 32 + 262'144'000.0);
  // Twice the micro-batch, twice the activations.
  FinetuneRequest twice = r;
  twice.micro_batch = 2;
  EXPECT_DOUBLE_EQ(activation_bytes(twice), 2 * activation_bytes(r));
}

// PEFT's print_trainable_parameters for r = 16 on q,k,v,o,gate,up,down: Llama 2 7B
// 39,976,960; Llama 3 8B 41,943,040. The MLP width is derived from the parameter count
// (11,010 for Llama 2 7B, config 11,008), so within 0.1 %.
TEST(FinetuneMemory, loraAdaptersMatchPeftCounts) {
  test::expect_within("Llama 2 7B LoRA r16 params",
                      lora_params_b(reference_model("llama-2-7b"), 16) * 1e9, 39'976'960, 0.001);
  test::expect_within("Llama 3.1 8B LoRA r16 params",
                      lora_params_b(reference_model("llama-3.1-8b"), 16) * 1e9, 41'943'040, 0.001);
  EXPECT_NEAR(lora_params_b(reference_model("llama-2-7b"), 64),
              4 * lora_params_b(reference_model("llama-2-7b"), 16), 1e-12);
  EXPECT_THROW(lora_params_b(reference_model("llama-2-7b"), 0), EngineError);
}

TEST(FinetuneMemory, loraKeepsA16BitFrozenBaseAnd16BytesPerAdapterParameter) {
  const ModelArch model = reference_model("llama-2-7b");
  const FinetuneMemory m = estimate_finetune_memory(run(model, FinetuneMethod::lora));
  const double adapter = lora_params_b(model, 16) * 1e9;
  EXPECT_NEAR(m.weights_gib, 6.74e9 * 2 / kGiB, 1e-9);
  EXPECT_NEAR(m.adapters_gib, adapter * 4 / kGiB, 1e-12);
  EXPECT_NEAR(m.gradients_gib, adapter * 4 / kGiB, 1e-12);
  EXPECT_NEAR(m.optimizer_state_gib, adapter * 8 / kGiB, 1e-12);
  EXPECT_DOUBLE_EQ(m.master_weights_gib, 0);
  EXPECT_NEAR(m.trainable_params_b, adapter / 1e9, 1e-12);
}

// Dettmers et al. 2023: NF4 with one fp32 absmax per 64 weights = 4.5 bits; with double
// quantization 4.127. Linear layers only: embedding and output stay at 16 bits.
TEST(FinetuneMemory, qloraBaseIsNf4OnLinearLayers) {
  ModelArch no_vocab = seven_b();
  no_vocab.vocab_size = 0;  // no separate embedding: every parameter quantized
  FinetuneRequest r = run(no_vocab, FinetuneMethod::qlora);
  EXPECT_NEAR(estimate_finetune_memory(r).weights_gib, 7e9 * 4.5 / 8 / kGiB, 1e-9);  // 3.67
  r.double_quant = true;
  EXPECT_NEAR(estimate_finetune_memory(r).weights_gib, 7e9 * 4.12695 / 8 / kGiB, 1e-4);
  // With a 32,000 x 4096 embedding and an untied output matrix (2 x 131.1M at 16 bits):
  const FinetuneMemory m = estimate_finetune_memory(run(seven_b(), FinetuneMethod::qlora));
  const double sixteen = 2 * 32000.0 * 4096;
  EXPECT_NEAR(m.weights_gib, ((7e9 - sixteen) * 4.5 / 8 + sixteen * 2) / kGiB, 1e-9);
}

// DOMAIN M1: "training or fine-tuning needs 2-4x the memory of inference". Full fine-tuning
// of an 8B against 16-bit inference is far beyond that (16 vs ~2 bytes per parameter);
// QLoRA against 4-bit inference lands in the range.
TEST(FinetuneMemory, ratioAgainstInferenceMemory) {
  const ModelArch model = reference_model("llama-3.1-8b");
  FitRequest f16{model, reference_quant("F16"), 2048, 1, KvCacheType::f16};
  const MemoryBreakdown inference = estimate_memory(f16);
  const FinetuneMemory full = estimate_finetune_memory(run(model, FinetuneMethod::full));
  const double ratio = training_to_inference_ratio(full, inference);
  EXPECT_DOUBLE_EQ(ratio, full.total_gib / inference.total_gib);
  EXPECT_GT(ratio, 7.0);  // 16 bytes/param + activations over ~2 bytes/param + cache
  EXPECT_LT(ratio, 9.0);
  FinetuneRequest q = run(model, FinetuneMethod::qlora);
  q.micro_batch = 4;
  const FitRequest q4{model, reference_quant("Q4_0"), 2048, 1, KvCacheType::f16};
  const double qlora_ratio =
      training_to_inference_ratio(estimate_finetune_memory(q), estimate_memory(q4));
  EXPECT_GE(qlora_ratio, 2.0) << "DOMAIN M1";
  EXPECT_LE(qlora_ratio, 4.0) << "DOMAIN M1";
  EXPECT_THROW(training_to_inference_ratio(full, MemoryBreakdown{}), EngineError);
}

TEST(FinetuneFit, shardsStatesAcrossDevicesAndKeepsActivationsPerDevice) {
  FinetuneMemory m;
  m.states_gib = 100;
  m.activations_gib = 4;
  m.total_gib = 104;
  const Device h100 = reference_device("h100-sxm");  // 78.14 GiB usable
  const FinetuneFit one = fit_finetune(m, h100, 1);
  EXPECT_DOUBLE_EQ(one.per_device_gib, 104);
  EXPECT_EQ(one.verdict, Verdict::does_not_fit);
  const FinetuneFit two = fit_finetune(m, h100, 2);
  EXPECT_DOUBLE_EQ(two.per_device_gib, 54);
  EXPECT_EQ(two.verdict, Verdict::fits);
  EXPECT_NEAR(two.headroom_gib, usable_memory_gib(h100, 1) - 54, 1e-12);
  EXPECT_THROW(fit_finetune(m, h100, 0), EngineError);
}

TEST(FinetuneFit, rankingTakesTheFewestDevicesAndNeverMultipliesAMac) {
  FinetuneMemory m;
  m.states_gib = 120;
  m.activations_gib = 4;
  m.total_gib = 124;
  const auto rows = rank_finetune(
      m, {reference_device("rtx-3090"), reference_device("m4-max-40c"), reference_device("b200")},
      0);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].device.id, "b200");  // alone
  EXPECT_EQ(rows[0].count, 1);
  EXPECT_EQ(rows[1].device.id, "rtx-3090");
  // 120 / 6 + 4 = 24 GiB does not fit 22.39 usable; 120 / 7 + 4 = 21.1 is tight (> 90 %).
  EXPECT_EQ(rows[1].count, 7);
  EXPECT_EQ(rows[1].verdict, Verdict::tight);
  EXPECT_EQ(rows[2].device.id, "m4-max-40c");
  EXPECT_EQ(rows[2].count, 1);
  EXPECT_EQ(rows[2].verdict, Verdict::does_not_fit);
}

}  // namespace
}  // namespace gputco
