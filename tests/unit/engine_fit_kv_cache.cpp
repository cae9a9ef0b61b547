// KV cache from the architecture: GQA, sliding windows, MLA, cache types.
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "tests/support/reference_data.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

using test::reference_model;
using test::within;

double kv_gib(const std::string& model, int context, KvCacheType type = KvCacheType::f16) {
  return bytes_to_gib(kv_cache_bytes(reference_model(model), type, context));
}

// DOMAIN M3: 2 x 32 x 8 x 128 x 2 bytes = 128 KiB per token; ~1 GiB at 8K, 16 GiB at 128K.
TEST(FitKvCache, llama31GqaCache) {
  EXPECT_DOUBLE_EQ(kv_cache_bytes(reference_model("llama-3.1-8b"), KvCacheType::f16, 256),
                   256 * 131072.0);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.1-8b", 8192), 1.0);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.1-8b", 131072), 16.0);
}

// llama.cpp pads the cells of a context to a multiple of 256 (llama-context.cpp: n_ctx =
// GGML_PAD(n_ctx, 256)): 1 token or 100 allocate 256 cells, 8,000 allocate 8,192.
TEST(FitKvCache, contextPaddedTo256Cells) {
  EXPECT_DOUBLE_EQ(kv_cells_full(1), 256.0);
  EXPECT_DOUBLE_EQ(kv_cells_full(256), 256.0);
  EXPECT_DOUBLE_EQ(kv_cells_full(257), 512.0);
  EXPECT_DOUBLE_EQ(kv_cells_full(8000), 8192.0);
  EXPECT_DOUBLE_EQ(kv_cells_full(0), 0.0);
  const ModelArch m = reference_model("llama-3.1-8b");
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 8000),
                   kv_cache_bytes(m, KvCacheType::f16, 8192));
}

// GQA ignored (KV heads taken as attention heads) would give 4x: 512 KiB per token.
TEST(FitKvCache, gqaUsesKvHeadsNotAttentionHeads) {
  const ModelArch m = reference_model("llama-3.1-8b");
  ModelArch mha = m;
  mha.kv_heads = mha.heads;
  EXPECT_DOUBLE_EQ(
      kv_cache_bytes(mha, KvCacheType::f16, 256) / kv_cache_bytes(m, KvCacheType::f16, 256), 4.0);
  // Llama 2 7B has no GQA: 512 KiB per token.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(reference_model("llama-2-7b"), KvCacheType::f16, 256),
                   256 * 524288.0);
}

// DOMAIN M10 / "How other calculators go wrong": Gemma 3 27B at 131,072 tokens costs
// ~10.4 GiB of f16 cache, not the 60-80 GB of calculators that charge every layer the full
// context. llama.cpp's allocation: 10 global layers x 131,072 cells + 52 sliding layers x
// pad256(1,024 + 512 ubatch) = 1,536 cells, each 2 x 16 KV heads x 128 x 2 bytes = 8,192:
// (10 x 131,072 + 52 x 1,536) x 8,192 = 11,391,729,664 bytes = 10.609 GiB (DOMAIN's 10.4
// counts 1,024 cells per sliding layer).
TEST(FitKvCache, gemma3SlidingWindowLayersCappedAtWindow) {
  EXPECT_DOUBLE_EQ(kv_cache_bytes(reference_model("gemma-3-27b"), KvCacheType::f16, 131072),
                   11391729664.0);
  const double gib = kv_gib("gemma-3-27b", 131072);
  EXPECT_TRUE(within(gib, 10.4, 0.03));
  EXPECT_LT(gib, 15.0);
  // A conventional 32B model (Qwen3 32B, all 64 layers full) pays ~32 GiB.
  EXPECT_TRUE(within(kv_gib("qwen3-32b", 131072), 32.0, 0.01));
}

// gpt-oss alternates sliding (128-token window) and full layers: llama.cpp gives the 18
// sliding layers of the 120B pad256(128 + 512) = 768 cells whatever the context.
TEST(FitKvCache, gptOssCapsSlidingLayersAtWindow) {
  const ModelArch m = reference_model("gpt-oss-120b");
  const double per_layer_token = 2.0 * 8 * 64 * 2;  // K and V, 8 KV heads, head_dim 64, f16
  EXPECT_DOUBLE_EQ(kv_cells_sliding(m, 131072), 768.0);
  const double expected = per_layer_token * (18 * 131072.0 + 18 * 768.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 131072), expected);
  // Below window + ubatch every layer holds the whole (padded) context.
  EXPECT_DOUBLE_EQ(kv_cells_sliding(m, 100), 256.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 100), per_layer_token * 36 * 256);
  // A larger micro-batch widens the sliding cache: 128 + 2,048 -> 2,304 cells.
  EXPECT_DOUBLE_EQ(kv_cells_sliding(m, 131072, 2048), 2304.0);
}

// "How other calculators go wrong": DeepSeek V3 caches kv_lora_rank + rope = 576 elements per
// layer per token and no V (llama.cpp PR #19067, V-less MLA cache): 61 x 576 x 2 bytes =
// 70,272 bytes per token, 2,196 MiB at 32K, ~4.3 GiB at 64K (not ~321 GiB as if it were full
// multi-head attention).
TEST(FitKvCache, deepseekMlaCachesTheCompressedLatent) {
  const ModelArch m = reference_model("deepseek-v3");
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 256), 256 * 70272.0);
  EXPECT_NEAR(kv_cache_bytes(m, KvCacheType::f16, 32768) / kBytesPerMiB, 2196.0, 0.5);
  EXPECT_TRUE(within(kv_gib("deepseek-v3", 65536), 4.3, 0.02));
  // The latent is K: a q8_0 V type changes nothing, a q8_0 K type the whole cache.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheTypes{KvCacheType::f16, KvCacheType::q8_0}, 256),
                   256 * 70272.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheTypes{KvCacheType::q8_0, KvCacheType::f16}, 256),
                   256 * 70272.0 * 8.5 / 16);
}

// head_dim from the config, not hidden / heads: Qwen3 32B has 5120 / 64 = 80 but head_dim 128;
// gpt-oss 2880 / 64 = 45 but 64; Gemma 3 27B 5376 / 32 = 168 but 128.
TEST(FitKvCache, headDimFromConfigNotHiddenOverHeads) {
  EXPECT_EQ(effective_head_dim(reference_model("qwen3-32b")), 128);
  EXPECT_EQ(effective_head_dim(reference_model("gpt-oss-120b")), 64);
  EXPECT_EQ(effective_head_dim(reference_model("gemma-3-27b")), 128);
  ModelArch no_head_dim = reference_model("llama-3.1-8b");
  no_head_dim.head_dim = 0;
  EXPECT_EQ(effective_head_dim(no_head_dim), 128);  // 4096 / 32 only when the config is silent
  // Qwen3 32B at 8K: 2.0 GiB with head_dim 128 (DOMAIN M4), 1.25 with the wrong 80.
  EXPECT_DOUBLE_EQ(kv_gib("qwen3-32b", 8192), 2.0);
}

// llama.cpp cache types: q8_0 = 34 bytes per 32 values (8.5 bits), q4_0 = 18 (4.5 bits).
TEST(FitKvCache, quantizedCacheTypes) {
  const double f16 = kv_gib("llama-3.3-70b", 32768, KvCacheType::f16);
  EXPECT_DOUBLE_EQ(f16, 10.0);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.3-70b", 32768, KvCacheType::q8_0), f16 * 8.5 / 16);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.3-70b", 32768, KvCacheType::q4_0), f16 * 4.5 / 16);
  // ggml block sizes (ggml-common.h): f32 4 bytes, q5_1 24, q5_0 22, q4_1 20, iq4_nl 18 per 32.
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::f32), 4.0);
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::bf16), 2.0);
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::q5_1), 0.75);
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::q5_0), 0.6875);
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::q4_1), 0.625);
  EXPECT_DOUBLE_EQ(kv_cache_element_bytes(KvCacheType::iq4_nl), 0.5625);
}

// K and V set apart (llama.cpp -ctk q8_0 -ctv f16): half the cache at 8.5 bits, half at 16.
// Llama 3.3 70B at 32K: 5 GiB of K at f16 -> 5 x 8.5 / 16 = 2.65625, plus 5 of V = 7.65625.
TEST(FitKvCache, kAndVTypesApart) {
  EXPECT_DOUBLE_EQ(
      bytes_to_gib(kv_cache_bytes(reference_model("llama-3.3-70b"),
                                  KvCacheTypes{KvCacheType::q8_0, KvCacheType::f16}, 32768)),
      7.65625);
  EXPECT_EQ(to_string(KvCacheTypes{KvCacheType::q8_0, KvCacheType::f16}), "q8_0/f16");
  EXPECT_EQ(to_string(KvCacheTypes{KvCacheType::q4_0}), "q4_0");
}

// A V head narrower than K's (GGUF value_length): K 192 and V 128 wide, 8 KV heads, f16:
// 8 x (192 + 128) x 2 = 5,120 bytes per layer per cell.
TEST(FitKvCache, valueHeadWidthApart) {
  ModelArch m = reference_model("llama-3.1-8b");
  m.head_dim = 192;
  m.head_dim_v = 128;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 256), 32 * 256 * 5120.0);
}

// Layers without KV (a hybrid's recurrent layers) hold no cache; their state is apart:
// 3 of 4 layers recurrent, 10,000 f32 elements each, per stream = 3 x 10,000 x 4 bytes.
TEST(FitKvCache, hybridLayersHoldStateNotCache) {
  ModelArch m = reference_model("llama-3.1-8b");
  m.layers_without_kv = 24;
  m.recurrent_layers = 24;
  m.recurrent_state_elements = 10000;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 256), 8 * 256 * 4096.0);
  EXPECT_DOUBLE_EQ(recurrent_state_bytes(m), 24 * 10000 * 4.0);
  EXPECT_DOUBLE_EQ(recurrent_state_bytes(reference_model("llama-3.1-8b")), 0.0);
}

TEST(FitKvCache, invalidInputsThrow) {
  EXPECT_THROW(kv_cells_sliding(reference_model("gemma-3-27b"), 10, 0), EngineError);
  ModelArch hybrid = reference_model("llama-3.1-8b");
  hybrid.recurrent_layers = 4;  // without a state size
  EXPECT_THROW(recurrent_state_bytes(hybrid), EngineError);
  hybrid = reference_model("llama-3.1-8b");
  hybrid.layers_without_kv = 33;
  EXPECT_THROW(kv_cache_bytes(hybrid, KvCacheType::f16, 10), EngineError);
  EXPECT_THROW(kv_cache_bytes(reference_model("llama-3.1-8b"), KvCacheType::f16, -1), EngineError);
  ModelArch m = reference_model("llama-3.1-8b");
  m.kv_heads = 0;  // not MLA: GQA needs KV heads
  EXPECT_THROW(kv_cache_bytes(m, KvCacheType::f16, 10), EngineError);
  m = reference_model("gemma-3-27b");
  m.swa_window = 0;
  EXPECT_THROW(kv_cache_bytes(m, KvCacheType::f16, 10), EngineError);
}

}  // namespace
}  // namespace gputco
