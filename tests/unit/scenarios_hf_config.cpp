// Hugging Face config.json files read locally: the architecture, the parameter count against
// published totals, the checkpoint's weight format, and the fields a bad file lacks.
// The configs below are the real files' values, copied as facts (source URL on each).
#include <gtest/gtest.h>

#include <string>

#include "engine/hardware/model_bytes.hpp"
#include "scenarios/hf_config.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/model_files.hpp"
#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

ModelFile read_config(const std::string& folder_name, const std::string& json) {
  const std::string dir = test::scratch_folder(folder_name);
  test::write_file(dir + "/config.json", json);
  return read_model_file(dir);
}

std::string problem_of(const std::string& json) {
  const std::string dir = test::scratch_folder("hf-bad");
  test::write_file(dir + "/config.json", json);
  try {
    read_model_file(dir + "/config.json");
  } catch (const ModelFileError& e) {
    return e.problem();
  }
  return "(no error)";
}

TEST(HfConfig, nestingDeeperThan64LevelsIsRefusedNotACrash) {
  // Was a segmentation fault (exit 139) at 100,000 levels: the parsed value was copied
  // recursively. 64 levels still parse (and then miss the fields a model needs).
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(100000, '}');
  EXPECT_EQ(problem_of(deep),
            "nested deeper than 64 levels of { and [ (a config.json has three or four)");
  std::string nested_64 = "{\"num_hidden_layers\": 2, \"x\": ";
  for (int i = 1; i < 64; ++i) nested_64 += "[";
  nested_64 += "1" + std::string(63, ']') + "}";
  EXPECT_EQ(problem_of(nested_64).find("nested deeper"), std::string::npos)
      << problem_of(nested_64);
}

// Meta's published count of Llama 3.1 8B: 8,030,261,248 (model card; by hand in
// scenarios/model_shape.hpp: 32 x 218,112,000 + 2 x 525,336,576 + 4,096).
TEST(HfConfig, llama31ParamsAndShape) {
  const ModelFile f = read_config("Llama-3.1-8B", test::kLlama31_8bConfig);
  const ModelArch& m = f.model;
  EXPECT_EQ(m.id, "Llama-3.1-8B");
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 8030261248.0);
  EXPECT_DOUBLE_EQ(m.active_params_b * 1e9, 8030261248.0 - 525336576.0);
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.head_dim, 0);  // not in the file: the engine takes 4096 / 32 = 128
  EXPECT_EQ(effective_head_dim(m), 128);
  EXPECT_EQ(m.max_context, 131072);
  EXPECT_EQ(m.max_context_scaled, 0);  // rope_type llama3: 131,072 is already the trained one
  EXPECT_EQ(f.native_quant.id, "BF16");
  EXPECT_DOUBLE_EQ(f.native_quant.bits_per_weight, 16.0);
}

// Mixtral 8x7B: 46,702,792,704 parameters (Mistral AI: 46.7B), 12.9B active with the
// embedding lookup (131,072,000): 12.75B by the engine's convention. The experts' width is
// intermediate_size (no moe_intermediate_size).
TEST(HfConfig, mixtralExpertsUseIntermediateSize) {
  const ModelArch m = read_config("Mixtral-8x7B-v0.1", test::kMixtral8x7bConfig).model;
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 46702792704.0);
  EXPECT_NEAR(m.active_params_b + 0.131072, 12.9, 0.03);
  EXPECT_EQ(m.experts, 8);
  EXPECT_EQ(m.experts_active, 2);
  EXPECT_EQ(m.swa_layers, 0);  // sliding_window null
}

// Qwen3 30B-A3B: 30,532,122,624 parameters (Qwen's model card: 30.5B, 3.3B activated, the
// embedding lookup's 311,164,928 included).
TEST(HfConfig, qwen3MoeParams) {
  const ModelFile f = read_config("Qwen3-30B-A3B", test::kQwen3_30bA3bConfig);
  EXPECT_DOUBLE_EQ(f.model.params_b * 1e9, 30532122624.0);
  EXPECT_NEAR(f.model.active_params_b + 0.311164928, 3.3, 0.06);
  EXPECT_EQ(f.model.head_dim, 128);  // given: not 2048 / 32 = 64
}

// gpt-oss 120B: 116,829,156,672 parameters, 5.13B active (OpenAI's model card: 116.8B and
// 5.1B); its checkpoint keeps the experts in MXFP4 and the rest in BF16: 65.3 GB.
TEST(HfConfig, gptOssParamsWindowsAndMxfp4) {
  const ModelFile f = read_config("gpt-oss-120b", test::kGptOss120bConfig);
  const ModelArch& m = f.model;
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 116829156672.0);
  EXPECT_NEAR(m.active_params_b, 5.13, 0.005);
  EXPECT_EQ(m.swa_layers, 18);
  EXPECT_EQ(m.swa_window, 128);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_EQ(f.native_quant.id, "MXFP4-BF16");
  // 114.7B expert weights x 4.25 bits + 2.1B other weights x 16 bits = 65.2 GB, the size of
  // the repository's safetensors (about 65 GB).
  EXPECT_NEAR(weights_bytes(m, f.native_quant) / 1e9, 65.2, 0.5);
}

// DeepSeek V3: 671,026,419,200 parameters (its report's 671B, the MTP module apart), 37B
// activated (36.6B by the engine's convention: without the embedding lookup); FP8 weights.
TEST(HfConfig, deepseekV3MlaParamsAndFp8) {
  const ModelFile f = read_config("DeepSeek-V3", test::kDeepseekV3Config);
  const ModelArch& m = f.model;
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 671026419200.0);
  EXPECT_NEAR(m.active_params_b, 37.0, 0.5);
  EXPECT_TRUE(m.is_mla());
  EXPECT_EQ(m.mla_kv_lora_rank, 512);
  EXPECT_EQ(m.mla_rope_dim, 64);
  EXPECT_EQ(m.max_context, 163840);
  EXPECT_EQ(m.max_context_scaled, 0);  // yarn 40 x 4,096 = 163,840: the trained maximum
  EXPECT_EQ(f.native_quant.id, "FP8");
}

// MLA caches a latent, not KV heads: its num_key_value_heads is not checked against the
// attention heads (DeepSeek V3's 128 replaced by 3 reads as the same model).
TEST(HfConfig, mlaKvHeadsNeedNotDivide) {
  std::string json = test::kDeepseekV3Config;
  const std::string key = R"("num_key_value_heads": 128)";
  json.replace(json.find(key), key.size(), R"("num_key_value_heads": 3)");
  const ModelArch m = read_config("DeepSeek-V3-kv3", json).model;
  EXPECT_EQ(m.kv_heads, 0);
  EXPECT_EQ(m.mla_kv_lora_rank, 512);
}

// Gemma 3 27B (a multimodal config: the language model is text_config): 5 of every 6 layers
// slide (sliding_window_pattern 6): 52 of 62. Text weights 27.0B (27.4B with the vision tower).
TEST(HfConfig, gemma3TextConfigAndPattern) {
  const ModelFile f = read_config("gemma-3-27b-it", test::kGemma3_27bConfig);
  const ModelArch& m = f.model;
  EXPECT_EQ(m.layers, 62);
  EXPECT_EQ(m.swa_layers, 52);
  EXPECT_EQ(m.swa_window, 1024);
  EXPECT_EQ(m.head_dim, 128);  // 5376 / 32 would be 168
  EXPECT_TRUE(m.tied_embeddings);
  // 62 x 412,898,560 + 262,208 x 5,376 + 5,376 = 27,009,346,304.
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 27009346304.0);
}

// Qwen3-Next 80B-A3B: 3 of every 4 layers are Gated DeltaNet (no KV, a state). Qwen's model
// card: 80B total, 3B activated (rounded). By hand:
//   attention layer (12): gated q 2048 x 8192 + k, v 2048 x 512 + o 4096 x 2048 + q/k norms
//     512 = 27,263,488; DeltaNet layer (36): in_proj_qkvz 2048 x 12,288 + in_proj_ba 2048 x 64
//     + conv 8,192 x 4 + dt, A 64 + norm 128 + out 4,096 x 2048 = 33,718,464;
//   MoE FFN (48): router 2048 x 512 + 512 experts x 3 x 2048 x 512 + shared 3 x 2048 x 512 +
//     its gate 2048 = 1,614,809,088; norms 4,096;
//   12 x 1,642,076,672 + 36 x 1,648,531,648 + embedding and output 2 x 311,164,928 + 2048
//   = 79,674,391,296; active = that - 311,164,928 - 48 x 1,610,612,736 x 502 / 512
//   = 3,563,764,480.
TEST(HfConfig, qwen3NextHybrid) {
  const ModelArch m = read_config("Qwen3-Next-80B-A3B-Instruct", test::kQwen3Next80bConfig).model;
  EXPECT_EQ(m.layers_without_kv, 36);
  EXPECT_EQ(m.recurrent_layers, 36);
  EXPECT_DOUBLE_EQ(m.recurrent_state_elements, 548864.0);
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 79674391296.0);
  EXPECT_DOUBLE_EQ(m.active_params_b * 1e9, 3563764480.0);
}

// Qwen3 with YaRN as its model card configures it (factor 4 over 32,768 tokens): contexts up
// to 131,072 are allowed beyond the trained 40,960.
TEST(HfConfig, ropeScalingExtendsTheContext) {
  std::string json = test::kQwen3_30bA3bConfig;
  json.replace(json.find("\"rope_scaling\": null"), 20,
               R"("rope_scaling": {"rope_type": "yarn", "factor": 4.0, )"
               R"("original_max_position_embeddings": 32768})");
  const ModelArch m = read_config("Qwen3-yarn", json).model;
  EXPECT_EQ(m.max_context, 40960);
  EXPECT_EQ(m.max_context_scaled, 131072);
}

// A factor of -8 or 1e308 was ignored without a word (newcomer M9): the model was planned as
// if it had no RoPE scaling. Refused naming the key and its range; a factor below 1 is a note.
TEST(HfConfig, aNonsensicalRopeFactorIsRefusedNamingItsKey) {
  const auto with_factor = [](const std::string& factor) {
    std::string json = test::kQwen3_30bA3bConfig;
    json.replace(json.find("\"rope_scaling\": null"), 20,
                 R"("rope_scaling": {"rope_type": "yarn", "factor": )" + factor +
                     R"(, "original_max_position_embeddings": 32768})");
    return json;
  };
  EXPECT_EQ(problem_of(with_factor("-8")),
            "rope_scaling.factor: expected a RoPE scaling factor above 0 and at most 1024 (the "
            "multiple of the trained context), got -8");
  EXPECT_EQ(problem_of(with_factor("1e308")),
            "rope_scaling.factor: expected a RoPE scaling factor above 0 and at most 1024 (the "
            "multiple of the trained context), got 1e+308");
  const ModelFile half = read_config("Qwen3-rope-half", with_factor("0.5"));
  EXPECT_EQ(half.model.max_context_scaled, 0);
  bool noted = false;
  for (const auto& note : half.notes)
    noted |= note.find("rope_scaling.factor 0.5 is below 1") != std::string::npos;
  EXPECT_TRUE(noted);
  // 32 (1,048,576 tokens over 32,768) is within the bound.
  EXPECT_EQ(read_config("Qwen3-rope-32", with_factor("32")).model.max_context_scaled, 1048576);
}

TEST(HfConfig, missingFieldNamesFieldAndFile) {
  EXPECT_EQ(problem_of(R"({"hidden_size": 4096, "vocab_size": 32000})"),
            "num_hidden_layers: missing (the layer count)");
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                          "vocab_size": 100})"),
            "intermediate_size: missing (needed to count the parameters and size the cache)");
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": "32"})"),
            "num_hidden_layers: expected a whole number, got \"32\"");
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                          "num_key_value_heads": 8, "vocab_size": 100})"),
            "num_key_value_heads: 8 is more than the 4 attention heads");
  // 16 attention heads cannot share 3 KV heads evenly (transformers' repeat_kv).
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 16,
                          "num_key_value_heads": 3, "vocab_size": 100})"),
            "num_key_value_heads: 3 does not divide num_attention_heads 16 (grouped-query "
            "attention shares each KV head among an equal number of attention heads)");
  EXPECT_EQ(problem_of(R"({"n_layer": 2, "n_embd": 64, "n_head": 6, "n_head_kv": 4,
                          "vocab_size": 100})"),
            "n_head_kv: 4 does not divide n_head 6 (grouped-query attention shares each KV head "
            "among an equal number of attention heads)");
  // Was accepted with a head width of 0 (hidden 1 / 32 heads) and a KV cache of 0 GiB.
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": 2, "hidden_size": 4095, "num_attention_heads": 32,
                          "num_key_value_heads": 8, "vocab_size": 100})"),
            "hidden_size: 4095 is not a multiple of num_attention_heads 32 (the head width is "
            "hidden_size / heads unless head_dim is given)");
  EXPECT_EQ(problem_of(R"({"num_hidden_layers": 2, "hidden_size": 1, "num_attention_heads": 32,
                          "num_key_value_heads": 8, "vocab_size": 100})")
                .rfind("hidden_size: 1 is not a multiple", 0),
            0u);
  EXPECT_EQ(problem_of("{ not json"),
            "byte 4: not JSON: syntax error while parsing object key - invalid literal; last "
            "read: '{ no'; expected string literal");
  // The file is named in what().
  const std::string dir = test::scratch_folder("hf-named");
  test::write_file(dir + "/config.json", R"({"hidden_size": 1})");
  try {
    read_model_file(dir + "/config.json");
    ADD_FAILURE() << "no error";
  } catch (const ModelFileError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir + "/config.json: num_hidden_layers: missing (the layer count)");
  }
}

// llama.cpp does not slide Mistral's window: ignored, and said so.
TEST(HfConfig, ignoredSlidingWindowIsNoted) {
  const ModelFile f = read_config("Mistral-7B-v0.1", test::kMistral7bV01Config);
  EXPECT_EQ(f.model.swa_layers, 0);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0],
            "sliding_window = 4096 ignored: llama.cpp attends the whole context for model_type "
            "'mistral'");
}

}  // namespace
}  // namespace gputco
