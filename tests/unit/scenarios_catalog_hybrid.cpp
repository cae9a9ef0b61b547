// The built-in catalog's hybrid model (Qwen3-Next 80B-A3B, pricing/data/models.csv): its row
// holds what the config.json reader derives from the model's real config (the two must not
// drift apart), and its memory counts the recurrent state once per stream, not per token.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/model_files.hpp"
#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

ModelArch qwen3_next_from_config() {
  const std::string dir = test::scratch_folder("Qwen3-Next-80B-A3B-Instruct");
  test::write_file(dir + "/config.json", test::kQwen3Next80bConfig);
  return read_model_file(dir).model;
}

ModelArch qwen3_next_from_catalog() {
  const Catalog catalog = Catalog::open_builtin();
  const std::optional<ModelArch> row = catalog.model("qwen3-next-80b-a3b");
  if (!row) throw std::runtime_error("qwen3-next-80b-a3b is not in the built-in catalog");
  return *row;
}

// Every field the engine reads, the row against the reader's result for the same config
// (tests/support/hf_configs.hpp kQwen3Next80bConfig). Only the names differ: the reader names
// the model after its folder.
TEST(CatalogHybrid, qwen3NextRowEqualsTheConfigRead) {
  const ModelArch file = qwen3_next_from_config();
  const ModelArch row = qwen3_next_from_catalog();
  EXPECT_EQ(row.hf_repo, "Qwen/Qwen3-Next-80B-A3B-Instruct");
  EXPECT_DOUBLE_EQ(row.params_b, file.params_b);
  EXPECT_DOUBLE_EQ(row.active_params_b, file.active_params_b);
  EXPECT_EQ(row.layers, file.layers);
  EXPECT_EQ(row.hidden, file.hidden);
  EXPECT_EQ(row.heads, file.heads);
  EXPECT_EQ(row.kv_heads, file.kv_heads);
  EXPECT_EQ(row.head_dim, file.head_dim);
  EXPECT_EQ(row.head_dim_v, file.head_dim_v);
  EXPECT_EQ(row.experts, file.experts);
  EXPECT_EQ(row.experts_active, file.experts_active);
  EXPECT_EQ(row.swa_window, file.swa_window);
  EXPECT_EQ(row.swa_layers, file.swa_layers);
  EXPECT_EQ(row.mla_kv_lora_rank, file.mla_kv_lora_rank);
  EXPECT_EQ(row.mla_rope_dim, file.mla_rope_dim);
  EXPECT_EQ(row.max_context, file.max_context);
  EXPECT_EQ(row.max_context_scaled, file.max_context_scaled);
  EXPECT_EQ(row.vocab_size, file.vocab_size);
  EXPECT_EQ(row.tied_embeddings, file.tied_embeddings);
  EXPECT_EQ(row.layers_without_kv, file.layers_without_kv);
  EXPECT_EQ(row.recurrent_layers, file.recurrent_layers);
  EXPECT_DOUBLE_EQ(row.recurrent_state_elements, file.recurrent_state_elements);
  EXPECT_FALSE(row.file_weights.has_value());
  EXPECT_FALSE(file.file_weights.has_value());
  // And the values themselves (by hand in tests/unit/scenarios_hf_config.cpp
  // HfConfig.qwen3NextHybrid): a reader that drifted would drag the row test along.
  EXPECT_DOUBLE_EQ(row.params_b * 1e9, 79674391296.0);
  EXPECT_DOUBLE_EQ(row.active_params_b * 1e9, 3563764480.0);
  EXPECT_EQ(row.layers_without_kv, 36);
  EXPECT_DOUBLE_EQ(row.recurrent_state_elements, 548864.0);
}

// 4 streams x 32,768 tokens, f16 cache, the catalog row:
//   KV: 12 attention layers (48 - 36 DeltaNet) x 32,768 cells (a multiple of 256: no padding)
//       x 2 KV heads x 256 x (K 2 + V 2 bytes) = 805,306,368 bytes a stream (768 MiB);
//       x 4 streams = 3,221,225,472 bytes = 3.0 GiB.
//   State: 36 layers x 548,864 f32 x 4 bytes = 79,036,416 bytes a stream (75.375 MiB);
//       x 4 streams = 316,145,664 bytes = 301.5 MiB = 0.29443359375 GiB, whatever the context.
//   KV + state = 3.29443359375 GiB.
TEST(CatalogHybrid, qwen3NextFourStreamsOf32kHoldFourStates) {
  const ModelArch m = qwen3_next_from_catalog();
  const Quant bf16{"BF16", 16, "float"};
  const MemoryBreakdown at_32k = estimate_memory(FitRequest{m, bf16, 32768, 4, KvCacheType::f16});
  EXPECT_DOUBLE_EQ(at_32k.kv_cache_gib, 3.0);
  EXPECT_DOUBLE_EQ(at_32k.recurrent_state_gib, 0.29443359375);
  EXPECT_DOUBLE_EQ(at_32k.kv_cache_gib + at_32k.recurrent_state_gib, 3.29443359375);
  // Per sequence, not per token: a quarter of the context leaves the state as it was and
  // divides the cache by four; one stream holds one state.
  const MemoryBreakdown at_8k = estimate_memory(FitRequest{m, bf16, 8192, 4, KvCacheType::f16});
  EXPECT_DOUBLE_EQ(at_8k.recurrent_state_gib, 0.29443359375);
  EXPECT_DOUBLE_EQ(at_8k.kv_cache_gib, 0.75);
  const MemoryBreakdown one = estimate_memory(FitRequest{m, bf16, 32768, 1, KvCacheType::f16});
  EXPECT_DOUBLE_EQ(one.recurrent_state_gib, 79036416.0 / kBytesPerGiB);
  EXPECT_DOUBLE_EQ(one.kv_cache_gib, 0.75);
  // The same figures from the config.json itself.
  const MemoryBreakdown file =
      estimate_memory(FitRequest{qwen3_next_from_config(), bf16, 32768, 4, KvCacheType::f16});
  EXPECT_DOUBLE_EQ(file.total_gib, at_32k.total_gib);
}

}  // namespace
}  // namespace gputco
