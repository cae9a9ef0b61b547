// The built-in catalog's Qwen3.5 rows (issue #14 item 3: "Qwen3 and Qwen3.5 dense and MoE"):
// 9B and 27B dense, 35B-A3B, 122B-A10B and 397B-A17B MoE, every one a Gated DeltaNet hybrid.
// Each row holds what gputco's config reader derives from the model's config.json
// (tests/data/model_configs/<id>/config.json, its sources in SOURCES.md beside it), and the
// counts agree with what Qwen's model cards and llama.cpp publish.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/model_files.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

const Catalog& builtin() {
  static const Catalog catalog = Catalog::open_builtin();
  return catalog;
}

ModelArch row(const std::string& id) {
  const std::optional<ModelArch> m = builtin().model(id);
  if (!m) ADD_FAILURE() << id << " is not in the built-in catalog";
  return m.value_or(ModelArch{});
}

ModelArch from_config(const std::string& id) {
  return read_model_file(test::source_path("tests/data/model_configs/" + id)).model;
}

const char* const kIds[] = {"qwen3.5-9b", "qwen3.5-27b", "qwen3.5-35b-a3b", "qwen3.5-122b-a10b",
                            "qwen3.5-397b-a17b"};

// Every field the engine reads, the row against the reader's result for the same config (as
// CatalogHybrid.qwen3NextRowEqualsTheConfigRead does for Qwen3-Next). The reader counts a
// dense model's active parameters without the token embedding; the rows keep active = total
// for dense models, as every dense row of the catalog does.
TEST(CatalogQwen35, rowsEqualTheConfigRead) {
  for (const char* id : kIds) {
    SCOPED_TRACE(id);
    const ModelArch file = from_config(id);
    const ModelArch r = row(id);
    EXPECT_EQ(r.hf_repo.rfind("Qwen/Qwen3.5-", 0), 0u) << r.hf_repo;
    EXPECT_DOUBLE_EQ(r.params_b, file.params_b);
    if (r.is_moe()) {
      EXPECT_DOUBLE_EQ(r.active_params_b, file.active_params_b);
    } else {
      EXPECT_DOUBLE_EQ(r.active_params_b, r.params_b);
    }
    EXPECT_EQ(r.layers, file.layers);
    EXPECT_EQ(r.hidden, file.hidden);
    EXPECT_EQ(r.heads, file.heads);
    EXPECT_EQ(r.kv_heads, file.kv_heads);
    EXPECT_EQ(r.head_dim, file.head_dim);
    EXPECT_EQ(r.head_dim_v, file.head_dim_v);
    EXPECT_EQ(r.experts, file.experts);
    EXPECT_EQ(r.experts_active, file.experts_active);
    EXPECT_EQ(r.swa_window, file.swa_window);
    EXPECT_EQ(r.swa_layers, file.swa_layers);
    EXPECT_EQ(r.mla_kv_lora_rank, file.mla_kv_lora_rank);
    EXPECT_EQ(r.max_context, file.max_context);
    EXPECT_EQ(r.max_context_scaled, file.max_context_scaled);
    EXPECT_EQ(r.vocab_size, file.vocab_size);
    EXPECT_EQ(r.tied_embeddings, file.tied_embeddings);
    EXPECT_EQ(r.layers_without_kv, file.layers_without_kv);
    EXPECT_EQ(r.recurrent_layers, file.recurrent_layers);
    EXPECT_DOUBLE_EQ(r.recurrent_state_elements, file.recurrent_state_elements);
    // Three of every four layers are Gated DeltaNet (full_attention_interval 4).
    EXPECT_EQ(r.recurrent_layers * 4, r.layers * 3);
  }
}

// The reader's counts by hand, per layer (scenarios/model_shape.cpp; 2 norms a layer):
//   gated attention = H x heads x 256 x 2 + H x kv x 256 x 2 + heads x 256 x H + 2 x 256
//   DeltaNet = H x (2 x 16 x 128 + 2 x Vh x 128) + H x 2 x Vh + (2 x 2048 + Vh x 128) x 4
//              + 2 x Vh + 128 + Vh x 128 x H             (Vh: linear value heads)
//   FFN = 3 x H x I;  MoE = H x E + E x 3 x H x I_e + 3 x H x I_s + H
// 27B (H 5120, 24 / 4 heads, Vh 48, I 17408): attention 104,858,112, DeltaNet 115,876,064,
//   FFN 267,386,880; 16 x (104,858,112 + 267,386,880 + 10,240) + 48 x (115,876,064 +
//   267,386,880 + 10,240) + 2 x 248,320 x 5,120 (untied) + 5,120 = 26,895,998,464.
// 397B (H 4096, 32 / 2 heads, Vh 64, 512 experts of 1024, shared 1024): attention
//   104,858,112, DeltaNet 118,014,208, MoE 6,457,135,104; 15 x attention + 45 x DeltaNet + 60
//   x (MoE + 8,192) + 2 x 248,320 x 4,096 + 4,096 = 396,346,350,336; active = that - the
//   embedding 1,017,118,720 - 60 x 512 x 12,582,912 x (1 - 10/512) = 16,331,922,176.
TEST(CatalogQwen35, countsByHand) {
  EXPECT_DOUBLE_EQ(row("qwen3.5-27b").params_b * 1e9, 26895998464.0);
  EXPECT_DOUBLE_EQ(row("qwen3.5-397b-a17b").params_b * 1e9, 396346350336.0);
  EXPECT_DOUBLE_EQ(row("qwen3.5-397b-a17b").active_params_b * 1e9, 16331922176.0);
  // The state a sequence holds, per DeltaNet layer (llama.cpp n_embd_r + n_embd_s):
  // (conv 4 - 1) x (Vh x 128 + 2 x 16 x 128) + 128 x Vh x 128.
  EXPECT_DOUBLE_EQ(row("qwen3.5-9b").recurrent_state_elements, 3.0 * (4096 + 4096) + 524288);
  EXPECT_DOUBLE_EQ(row("qwen3.5-27b").recurrent_state_elements, 3.0 * (6144 + 4096) + 786432);
  EXPECT_DOUBLE_EQ(row("qwen3.5-122b-a10b").recurrent_state_elements,
                   3.0 * (8192 + 4096) + 1048576);
}

// Qwen's model cards: 9B, 27B, 35B / 3B activated, 122B / 10B, 397B / 17B. The totals within
// 1 % (the reader counts the language model; the cards' rounded figures). The activated
// figures are whole billions that count the token embedding, which the catalog's
// active_params_b leaves out (it is a lookup, not a matrix product): active + vocab x hidden
// is the card's figure to the nearest billion (3.455, 9.771, 17.349).
TEST(CatalogQwen35, parameterCountsMatchTheModelCards) {
  const struct {
    const char* id;
    double total_b;
    double active_b;  // 0: dense
  } cards[] = {{"qwen3.5-9b", 9, 0},
               {"qwen3.5-27b", 27, 0},
               {"qwen3.5-35b-a3b", 35, 3},
               {"qwen3.5-122b-a10b", 122, 10},
               {"qwen3.5-397b-a17b", 397, 17}};
  for (const auto& card : cards) {
    const ModelArch r = row(card.id);
    test::expect_within(std::string(card.id) + " total, B", r.params_b, card.total_b, 0.01);
    if (card.active_b > 0) {
      const double embedding_b = static_cast<double>(r.vocab_size) * r.hidden / 1e9;
      EXPECT_NEAR(r.active_params_b + embedding_b, card.active_b, 0.5) << card.id;
    }
  }
}

// llama.cpp's own count of a Qwen3.5-27B GGUF (huggingface.co/sokann/Qwen3.5-27B-GGUF-4.165bpw,
// its load log): "model size = 13.040 GiB (4.165 BPW)" and "repeating layers = ... 24.353 B
// parameters". The repeating layers are everything but the token embedding and the output:
// 26,895,998,464 - 2 x 248,320 x 5,120 = 24,353,201,664. The file's size over its bits per
// weight gives all the parameters: 13.040 x 2^30 x 8 / 4.165 = 26.894 B (both figures
// rounded to 3 decimals: 0.03 %). The GGUF holds neither the vision tower nor the MTP layer.
TEST(CatalogQwen35, qwen35_27bCountsAsLlamaCppDoes) {
  const ModelArch r = row("qwen3.5-27b");
  const double repeating = r.params_b * 1e9 - 2.0 * r.vocab_size * r.hidden;
  EXPECT_NEAR(repeating / 1e9, 24.353, 0.0005);
  test::expect_within("Qwen3.5-27B GGUF parameters, B", r.params_b,
                      13.040 * kBytesPerGiB * 8 / 4.165 / 1e9, 0.0003);
}

// 27B, one stream of 32,768 tokens, f16 cache:
//   KV: 16 attention layers x 32,768 cells x 4 KV heads x 256 x (K 2 + V 2 bytes)
//       = 2,147,483,648 bytes = 2.0 GiB (a quarter of what attention on all 64 layers would
//       hold: the 48 DeltaNet layers hold none).
//   State: 48 DeltaNet layers x 817,152 f32 x 4 bytes = 156,893,184 bytes
//       = 0.1461181640625 GiB, whatever the context.
TEST(CatalogQwen35, qwen35_27bCacheAndStateAt32k) {
  const Quant bf16{"BF16", 16, "float"};
  const MemoryBreakdown m =
      estimate_memory(FitRequest{row("qwen3.5-27b"), bf16, 32768, 1, KvCacheType::f16});
  EXPECT_DOUBLE_EQ(m.kv_cache_gib, 2.0);
  EXPECT_DOUBLE_EQ(m.recurrent_state_gib, 156893184.0 / kBytesPerGiB);
  // The weights: 26,895,998,464 x 2 bytes, less the token embedding 248,320 x 5,120 x 2 bytes
  // = 2,542,796,800 that llama.cpp keeps in host RAM.
  EXPECT_NEAR(m.weights_gib, (26895998464.0 * 2 - 2542796800.0) / kBytesPerGiB, 1e-9);
  EXPECT_NEAR(m.host_embedding_gib, 2542796800.0 / kBytesPerGiB, 1e-9);
}

}  // namespace
}  // namespace gputco
