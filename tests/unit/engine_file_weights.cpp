// Models read from files: exact weight bytes per group (a GGUF's tensor table), the
// recurrent state of hybrids, and contexts within RoPE scaling.
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

using test::reference_model;

// A MoE model whose file holds 1 GB of embedding, 2 GB of output, 40 GB of experts (8 of 64
// used) and 5 GB of the rest.
ModelArch moe_from_file() {
  ModelArch m = reference_model("qwen3-30b-a3b");
  m.file_weights = FileWeights{"Q4_K_M", 1e9, 2e9, 40e9, 5e9};
  return m;
}

TEST(FileWeights, fileFormatTakesTheFilesBytes) {
  const ModelArch m = moe_from_file();
  EXPECT_DOUBLE_EQ(weights_bytes(m, Quant{"Q4_K_M", 4.89, "mix"}), 48e9);
  EXPECT_DOUBLE_EQ(weights_bytes(m, Quant{"q4_k_m", 4.89, "mix"}), 48e9);  // ids ignore case
  // Another format: the recipe over the parameters, as for a catalog model.
  ModelArch catalog = m;
  catalog.file_weights.reset();
  EXPECT_DOUBLE_EQ(weights_bytes(m, Quant{"Q8_0", 8.5, "block"}),
                   weights_bytes(catalog, Quant{"Q8_0", 8.5, "block"}));
}

// One stream reads the rest, the output and the share of experts it uses: 5 + 2 + 40 x 8/128
// (Qwen3 30B-A3B: 8 of 128 experts) = 9.5 GB; two streams touch 1 - (120/128)^2 of them.
TEST(FileWeights, decodeReadsTheFilesGroups) {
  const ModelArch m = moe_from_file();
  const Quant q{"Q4_K_M", 4.89, "mix"};
  EXPECT_DOUBLE_EQ(weights_read_per_step_bytes(m, q, 1), 5e9 + 2e9 + 40e9 * 8 / 128);
  const double miss = 120.0 / 128;
  EXPECT_DOUBLE_EQ(weights_read_per_step_bytes(m, q, 2), 5e9 + 2e9 + 40e9 * (1 - miss * miss));
}

TEST(FileWeights, negativeBytesRefused) {
  ModelArch m = moe_from_file();
  m.file_weights->experts_bytes = -1;
  EXPECT_THROW(weights_bytes(m, Quant{"Q4_K_M", 4.89, "mix"}), EngineError);
}

// A hybrid's recurrent state is part of the memory: 2 streams x 24 layers x 100,000 f32
// elements = 19,200,000 bytes.
TEST(FileWeights, recurrentStateInTheMemoryEstimate) {
  ModelArch m = reference_model("llama-3.1-8b");
  m.layers_without_kv = 24;
  m.recurrent_layers = 24;
  m.recurrent_state_elements = 100000;
  FitRequest r{m, test::reference_quant("Q4_K_M"), 8192, 2, KvCacheType::f16};
  const MemoryBreakdown mb = estimate_memory(r);
  EXPECT_DOUBLE_EQ(mb.recurrent_state_gib, 19200000.0 / kBytesPerGiB);
  EXPECT_DOUBLE_EQ(mb.total_gib,
                   mb.weights_gib + mb.kv_cache_gib + mb.recurrent_state_gib + mb.overhead_gib);
  // 8 attending layers x 8,192 cells x 8 KV heads x 128 x 4 bytes x 2 streams = 0.5 GiB.
  EXPECT_DOUBLE_EQ(mb.kv_cache_gib, 0.5);
}

// Qwen3 32B trains on 40,960 tokens; with YaRN (factor 4 over 32,768) it serves 131,072.
TEST(FileWeights, contextWithinRopeScalingWarns) {
  ModelArch m = reference_model("qwen3-32b");
  EXPECT_NE(context_beyond_model_reason(m, 65536), "");
  m.max_context_scaled = 131072;
  EXPECT_EQ(context_beyond_model_reason(m, 65536), "");
  EXPECT_EQ(context_scaling_warning(m, 65536),
            "context of 65536 tokens is beyond qwen3-32b's trained maximum of 40960 tokens, "
            "within its RoPE scaling (up to 131072): answers may degrade at the longest contexts");
  EXPECT_EQ(context_scaling_warning(m, 40960), "");
  EXPECT_EQ(context_beyond_model_reason(m, 131073),
            "131073 is beyond qwen3-32b's maximum context of 40960 tokens, 131072 with its RoPE "
            "scaling");
  EXPECT_EQ(default_context_tokens(m, 65536), 40960);  // the default stays the trained one
}

}  // namespace
}  // namespace gputco
