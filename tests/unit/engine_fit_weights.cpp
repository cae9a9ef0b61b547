// Weight sizes: tensor groups by quant recipe, against published GGUF file sizes.
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "tests/support/reference_data.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

using test::reference_model;
using test::reference_quant;
using test::within;

double weights_gib(const std::string& model, const std::string& quant) {
  return bytes_to_gib(weights_bytes(reference_model(model), reference_quant(quant)));
}

// Every row of tests/data/reference/gguf_sizes.csv within 3 %, one recipe per quant for all
// model sizes (Q4_K_M is 4.89 bits on 8B and 4.82 on 70B: the Q6_K output matrix weighs more
// in the small model).
TEST(FitWeights, matchPublishedGgufSizesWithinThreePercent) {
  const auto rows = test::gguf_sizes();
  ASSERT_GE(rows.size(), 18u);
  for (const auto& row : rows) {
    EXPECT_TRUE(within(weights_gib(row.model_id, row.quant), row.file_gib, 0.03))
        << row.model_id << " " << row.quant << " (" << row.source << ")";
  }
}

TEST(FitWeights, sameRecipeExplainsQ4KMOnSmallAndLargeModels) {
  const double bits_8b =
      weights_bytes(reference_model("llama-3.1-8b"), reference_quant("Q4_K_M")) * 8 / (8.03e9);
  const double bits_70b =
      weights_bytes(reference_model("llama-3-70b"), reference_quant("Q4_K_M")) * 8 / (70.6e9);
  EXPECT_NEAR(bits_8b, 4.89, 0.03) << "whole-file bits on Llama 3.1 8B (quants.csv note)";
  EXPECT_NEAR(bits_70b, 4.82, 0.03) << "whole-file bits on Llama 3 70B (quants.csv note)";
}

// gpt-oss 120B: llama-bench reports 59.02 GiB for the MXFP4 GGUF (116.83 B parameters):
// experts at 4.25 bits, attention, router, embedding and output at 8 bits. Treating the whole
// model at 4.25 bits would give 57.8; at BF16 for the non-experts 60.8.
TEST(FitWeights, mxfp4KeepsNonExpertTensorsAtHigherPrecision) {
  EXPECT_TRUE(within(weights_gib("gpt-oss-120b", "MXFP4"), 59.02, 0.02));
  // llama-bench: 11.27 GiB for gpt-oss 20B MXFP4.
  EXPECT_TRUE(within(weights_gib("gpt-oss-20b", "MXFP4"), 11.27, 0.03));
}

// MoE memory follows TOTAL parameters (a 37 GB model is not a 9 GB one).
TEST(FitWeights, moeMemoryFollowsTotalParameters) {
  const ModelArch qwen = reference_model("qwen3-30b-a3b");
  const double gib = weights_gib("qwen3-30b-a3b", "Q4_K_M");
  const double active_only_gib = bytes_to_gib(qwen.active_params_b * 1e9 * 4.89 / 8);
  EXPECT_GT(gib, 5 * active_only_gib) << "weights " << gib << " GiB";
  // Qwen3-30B-A3B Q4_K_M GGUF: 18.6 GB = 17.3 GiB.
  EXPECT_TRUE(within(gib, 17.3, 0.05));
}

TEST(FitWeights, expertParametersComeFromTheArchitecture) {
  // gpt-oss 120B: 36 layers x 128 experts x 3 x 2880 x 2880 = 114.65 B expert parameters.
  EXPECT_TRUE(within(param_groups(reference_model("gpt-oss-120b")).experts_b, 114.65, 0.01));
  // DeepSeek V3: 58 MoE layers x 256 experts x 3 x 7168 x 2048 = 653.9 B.
  EXPECT_TRUE(within(param_groups(reference_model("deepseek-v3")).experts_b, 653.9, 0.01));
  // Qwen3 30B-A3B: 48 x 128 x 3 x 2048 x 768 = 29.0 B.
  EXPECT_TRUE(within(param_groups(reference_model("qwen3-30b-a3b")).experts_b, 29.0, 0.02));
  const ParamGroups dense = param_groups(reference_model("llama-3.1-8b"));
  EXPECT_EQ(dense.experts_b, 0.0);
  EXPECT_NEAR(dense.embedding_b + dense.output_b + dense.other_b, 8.03, 1e-9);
}

TEST(FitWeights, moeDecodeReadsActiveExpertsOnly) {
  const ModelArch m = reference_model("gpt-oss-120b");
  const Quant q = reference_quant("MXFP4");
  const double read_gb = weights_read_per_step_bytes(m, q, 1) / 1e9;
  // ~1.6 GB of 8-bit non-expert tensors + 4/128 of 60.9 GB of experts = ~3.5 GB, far from
  // the 63 GB file and above file x active/total (2.8 GB), which ignores the 8-bit tensors.
  EXPECT_TRUE(within(read_gb, 3.55, 0.05));
  // Eight streams touch more experts: 1 - (1 - 4/128)^8 = 22.4 % of them.
  EXPECT_GT(weights_read_per_step_bytes(m, q, 8), 3 * weights_read_per_step_bytes(m, q, 1));
}

TEST(FitWeights, unknownVocabularyFallsBackToWholeFileBits) {
  ModelArch m = reference_model("llama-3.1-8b");
  m.vocab_size = 0;
  const double gib = bytes_to_gib(weights_bytes(m, reference_quant("Q4_K_M")));
  EXPECT_NEAR(gib, bytes_to_gib(8.03e9 * 4.89 / 8), 1e-9);
  const Quant custom{"Q5_1", 6.0, "block"};  // no recipe: flat
  EXPECT_NEAR(bytes_to_gib(weights_bytes(reference_model("llama-3.1-8b"), custom)),
              bytes_to_gib(8.03e9 * 6.0 / 8), 1e-9);
}

TEST(FitWeights, invalidInputsThrow) {
  ModelArch m = reference_model("llama-3.1-8b");
  const Quant q = reference_quant("Q4_K_M");
  m.params_b = 0;
  EXPECT_THROW(weights_bytes(m, q), EngineError);
  m = reference_model("llama-3.1-8b");
  m.active_params_b = 9;  // more than total
  EXPECT_THROW(weights_bytes(m, q), EngineError);
  m = reference_model("qwen3-30b-a3b");
  m.experts_active = 0;
  EXPECT_THROW(weights_bytes(m, q), EngineError);
  EXPECT_THROW(weights_bytes(reference_model("llama-3.1-8b"), Quant{"X", 0, "block"}), EngineError);
  EXPECT_THROW(weights_read_per_step_bytes(reference_model("llama-3.1-8b"), q, 0), EngineError);
}

}  // namespace
}  // namespace gputco
