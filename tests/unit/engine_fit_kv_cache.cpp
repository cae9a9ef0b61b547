// KV cache from the architecture: GQA, sliding windows, MLA, cache types.
#include <gtest/gtest.h>

#include "engine/error.hpp"
#include "engine/model_bytes.hpp"
#include "engine/units.hpp"
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
  EXPECT_DOUBLE_EQ(kv_cache_bytes(reference_model("llama-3.1-8b"), KvCacheType::f16, 1), 131072.0);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.1-8b", 8192), 1.0);
  EXPECT_DOUBLE_EQ(kv_gib("llama-3.1-8b", 131072), 16.0);
}

// GQA ignored (KV heads taken as attention heads) would give 4x: 512 KiB per token.
TEST(FitKvCache, gqaUsesKvHeadsNotAttentionHeads) {
  const ModelArch m = reference_model("llama-3.1-8b");
  ModelArch mha = m;
  mha.kv_heads = mha.heads;
  EXPECT_DOUBLE_EQ(
      kv_cache_bytes(mha, KvCacheType::f16, 1) / kv_cache_bytes(m, KvCacheType::f16, 1), 4.0);
  // Llama 2 7B has no GQA: 512 KiB per token.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(reference_model("llama-2-7b"), KvCacheType::f16, 1), 524288.0);
}

// DOMAIN M10 / "How other calculators go wrong": Gemma 3 27B at 131,072 tokens costs
// ~10.4 GiB of f16 cache (10 global layers at full context, 52 sliding layers at 1,024), not
// the 60-80 GB of calculators that charge every layer the full context.
TEST(FitKvCache, gemma3SlidingWindowLayersCappedAtWindow) {
  const double gib = kv_gib("gemma-3-27b", 131072);
  EXPECT_TRUE(within(gib, 10.4, 0.02));
  EXPECT_LT(gib, 15.0);
  // A conventional 32B model (Qwen3 32B, all 64 layers full) pays ~32 GiB.
  EXPECT_TRUE(within(kv_gib("qwen3-32b", 131072), 32.0, 0.01));
}

// gpt-oss alternates sliding (128-token window) and full layers: the 18 sliding layers of the
// 120B never hold more than 128 tokens.
TEST(FitKvCache, gptOssCapsSlidingLayersAtWindow) {
  const ModelArch m = reference_model("gpt-oss-120b");
  const double per_layer_token = 2.0 * 8 * 64 * 2;  // K and V, 8 KV heads, head_dim 64, f16
  const double expected = per_layer_token * (18 * 131072.0 + 18 * 128.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 131072), expected);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 100),
                   per_layer_token * 36 * 100);  // below the window every layer holds all
}

// "How other calculators go wrong": DeepSeek V3 caches kv_lora_rank + rope = 576 elements per
// layer per token: 61 x 576 x 2 bytes = 70,272 bytes per token, 2,196 MiB at 32K, ~4.3 GiB
// at 64K (not ~321 GiB as if it were full multi-head attention).
TEST(FitKvCache, deepseekMlaCachesTheCompressedLatent) {
  const ModelArch m = reference_model("deepseek-v3");
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 1), 70272.0);
  EXPECT_NEAR(kv_cache_bytes(m, KvCacheType::f16, 32768) / kBytesPerMiB, 2196.0, 0.5);
  EXPECT_TRUE(within(kv_gib("deepseek-v3", 65536), 4.3, 0.02));
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
}

TEST(FitKvCache, invalidInputsThrow) {
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
