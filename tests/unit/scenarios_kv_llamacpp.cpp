// The KV cache (and recurrent state) of real architectures, read from their config.json,
// against what llama.cpp allocates, one test per family. llama.cpp master of 2026: cells
// padded to 256 (src/llama-context.cpp, GGML_PAD(n_ctx, 256)); sliding-window layers
// GGML_PAD(min(n_ctx, n_swa + n_ubatch), 256) cells with the default n_ubatch 512
// (src/llama-kv-cache-iswa.cpp); the MLA cache holds the latent as K and no V (PR #19067,
// 2026-01-24); recurrent layers one f32 state per sequence of n_embd_r + n_embd_s
// (src/llama-memory-recurrent.cpp, src/llama-hparams.cpp). Each cache line "llama_kv_cache:
// size = X MiB" is the sum asserted here.
#include <gtest/gtest.h>

#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "scenarios/model_files.hpp"
#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

ModelArch from_config(const std::string& name, const char* json) {
  const std::string dir = test::scratch_folder(name);
  test::write_file(dir + "/config.json", json);
  return read_model_file(dir).model;
}

// Sliding window (Gemma 3 27B, google/gemma-3-27b-it config.json): at -c 32768, f16:
//   10 global layers x 32,768 cells + 52 sliding layers x pad256(1,024 + 512) = 1,536 cells,
//   each cell 16 KV heads x 128 x (K 2 + V 2 bytes) = 8,192 bytes:
//   (327,680 + 79,872) x 8,192 = 3,338,665,984 bytes = 3,184 MiB.
TEST(KvLlamaCpp, slidingWindowGemma3) {
  const ModelArch m = from_config("kv-gemma3", test::kGemma3_27bConfig);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 32768), 3338665984.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 32768) / kBytesPerMiB, 3184.0);
}

// MLA (DeepSeek V3, deepseek-ai/DeepSeek-V3 config.json): at -c 16384, f16: 61 layers x
//   16,384 cells x (kv_lora_rank 512 + qk_rope_head_dim 64) x 2 bytes = 1,151,336,448 bytes
//   = 1,098 MiB; no V. With -ctk q8_0: x 34 / 64 = 611,647,488.
TEST(KvLlamaCpp, mlaDeepseekV3) {
  const ModelArch m = from_config("kv-deepseek", test::kDeepseekV3Config);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 16384), 1151336448.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheTypes{KvCacheType::q8_0, KvCacheType::f16}, 16384),
                   611647488.0);
}

// Hybrid (Qwen3-Next 80B-A3B, Qwen/Qwen3-Next-80B-A3B-Instruct config.json): at -c 8192, one
//   sequence, f16: 12 attention layers x 8,192 cells x 2 KV heads x 256 x 4 bytes
//   = 201,326,592 bytes of KV (192 MiB); 36 Gated DeltaNet layers x (conv (4 - 1) x (4,096 +
//   2 x 16 x 128) + state 128 x 4,096 = 548,864) x 4 bytes = 79,036,416 bytes of recurrent
//   state (75.375 MiB), whatever the context; 4 sequences hold 4 states.
TEST(KvLlamaCpp, hybridQwen3Next) {
  const ModelArch m = from_config("kv-qwen3next", test::kQwen3Next80bConfig);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 8192), 201326592.0);
  EXPECT_DOUBLE_EQ(recurrent_state_bytes(m), 79036416.0);
  FitRequest r{m, Quant{"BF16", 16, "float"}, 8192, 4, KvCacheType::f16};
  const MemoryBreakdown mb = estimate_memory(r);
  EXPECT_DOUBLE_EQ(mb.kv_cache_gib, 4 * 201326592.0 / kBytesPerGiB);
  EXPECT_DOUBLE_EQ(mb.recurrent_state_gib, 4 * 79036416.0 / kBytesPerGiB);
}

// MoE with sliding windows (gpt-oss 120B, openai/gpt-oss-120b config.json): at -c 131072,
//   f16: 18 full layers x 131,072 cells + 18 sliding layers x pad256(128 + 512) = 768 cells,
//   each cell 8 KV heads x 64 x 4 bytes = 2,048: (2,359,296 + 13,824) x 2,048
//   = 4,860,149,760 bytes = 4,635 MiB. The experts change nothing: the cache is attention's.
TEST(KvLlamaCpp, moeGptOss) {
  const ModelArch m = from_config("kv-gpt-oss", test::kGptOss120bConfig);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 131072), 4860149760.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 131072) / kBytesPerMiB, 4635.0);
}

// MoE without windows (Qwen3 30B-A3B, Qwen/Qwen3-30B-A3B config.json): at -c 40960, f16:
//   48 layers x 40,960 cells x 4 KV heads x 128 x 4 bytes = 4,026,531,840 bytes = 3,840 MiB.
TEST(KvLlamaCpp, moeQwen3) {
  const ModelArch m = from_config("kv-qwen3moe", test::kQwen3_30bA3bConfig);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 40960), 4026531840.0);
}

}  // namespace
}  // namespace gputco
