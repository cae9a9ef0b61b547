// Models from their files through the binary: gputco fit --model PATH, a scenario's
// model = PATH (relative to the scenario), K and V cache types apart, RoPE-scaled contexts,
// and the messages of bad files.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

test::RunResult fit(std::vector<std::string> args) {
  args.insert(args.begin(), "fit");
  return test::run(test::gputco_exe(), args);
}

// The GGUF's exact bytes: 4,912,898,304 (tests/support/gguf_writer.hpp) = 4.5755 GiB.
TEST(CliModelFiles, fitReadsAGgufWithItsOwnQuant) {
  test::TempDir dir;
  test::llama31_8b_q4_k_m().write(dir.file("llama.gguf"));
  const auto r = fit({"--model", dir.file("llama.gguf"), "--gpu", "rtx-4090", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["model"], "llama");
  EXPECT_EQ(j["quant"], "Q4_K_M");
  // The file's 4,912,898,304 bytes less its token_embd (128,256 x 4,096 Q4_K: 525,336,576 / 256
  // x 144 = 295,501,824 bytes), which llama.cpp keeps in host RAM.
  EXPECT_DOUBLE_EQ(j["memory"]["weights_gib"].get<double>(),
                   (4912898304.0 - 295501824.0) / 1073741824.0);
  EXPECT_DOUBLE_EQ(j["memory"]["host_embedding_gib"].get<double>(), 295501824.0 / 1073741824.0);
  // 8K of f16 cache: 32 layers x 8,192 x 8 x 128 x 4 bytes = 1 GiB.
  EXPECT_DOUBLE_EQ(j["memory"]["kv_cache_gib"].get<double>(), 1.0);
  EXPECT_EQ(j["results"][0]["verdict"], "fits");
}

TEST(CliModelFiles, fitReadsAConfigJsonFolder) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("Qwen3-30B-A3B"));
  test::write_file(dir.file("Qwen3-30B-A3B/config.json"), test::kQwen3_30bA3bConfig);
  const auto r = fit({"--model", dir.file("Qwen3-30B-A3B"), "--gpu", "h100-sxm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["model"], "Qwen3-30B-A3B");
  EXPECT_EQ(j["quant"], "BF16");
  // 30,532,122,624 parameters x 2 bytes = 56.87 GiB, less the token embedding (151,936 x 2,048
  // x 2 bytes = 622,329,856) in host RAM.
  EXPECT_NEAR(j["memory"]["weights_gib"].get<double>(),
              (30532122624.0 * 2 - 622329856.0) / 1073741824.0, 1e-9);
  // Another format is estimated over the same parameters.
  const auto q4 = fit(
      {"--model", dir.file("Qwen3-30B-A3B"), "--quant", "Q4_K_M", "--gpu", "h100-sxm", "--json"});
  ASSERT_EQ(q4.exit_code, 0) << q4.err;
  EXPECT_EQ(json::parse(q4.out)["quant"], "Q4_K_M");
}

TEST(CliModelFiles, cacheTypesApart) {
  const auto r =
      fit({"--model", "llama-3.3-70b", "--quant", "Q4_K_M", "--context", "32768", "--cache-type-k",
           "q8_0", "--cache-type-v", "f16", "--gpu", "h100-sxm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["kv_cache"], "q8_0/f16");
  // 5 GiB of K at 8.5 / 16 + 5 GiB of V = 7.65625 GiB.
  EXPECT_DOUBLE_EQ(j["memory"]["kv_cache_gib"].get<double>(), 7.65625);
  const auto bad = fit({"--model", "llama-3.3-70b", "--quant", "Q4_K_M", "--cache-type-k", "q9"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "gputco: fit: --cache-type-k must be one of f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, "
            "q5_0, q5_1, fp8, got 'q9'\n");
}

// Qwen3 30B-A3B with YaRN (factor 4 over 32,768): 65,536 tokens are served, with a warning.
TEST(CliModelFiles, contextWithinRopeScalingWarns) {
  test::TempDir dir;
  std::string config = test::kQwen3_30bA3bConfig;
  config.replace(config.find("\"rope_scaling\": null"), 20,
                 R"("rope_scaling": {"rope_type": "yarn", "factor": 4.0, )"
                 R"("original_max_position_embeddings": 32768})");
  test::write_file(dir.file("config.json"), config);
  const auto r =
      fit({"--model", dir.file("config.json"), "--context", "65536", "--gpu", "h100-sxm"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: context of 65536 tokens is beyond"), std::string::npos) << r.err;
  const auto beyond = fit({"--model", dir.file("config.json"), "--context", "262144"});
  EXPECT_EQ(beyond.exit_code, 2);
}

TEST(CliModelFiles, badFilesExit2NamingFileAndOffset) {
  test::TempDir dir;
  test::write_file(dir.file("x.gguf"), "not a model at all");
  const auto r = fit({"--model", dir.file("x.gguf")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + dir.file("x.gguf") +
                       ": byte 0: not a GGUF file: it starts with 'not ', expected 'GGUF'\n");
  test::write_file(dir.file("config.json"), R"({"hidden_size": 4096})");
  const auto c = fit({"--model", dir.file("config.json")});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err, "error: " + dir.file("config.json") +
                       ": num_hidden_layers: missing (the layer count)\n");
  const auto missing = fit({"--model", dir.file("absent.gguf")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("absent.gguf: cannot open the file"), std::string::npos);
}

// A config.json whose KV heads do not divide its attention heads is refused, naming the
// file, both keys and both values.
TEST(CliModelFiles, kvHeadsThatDoNotDivideExit2) {
  test::TempDir dir;
  std::string config = test::kLlama31_8bConfig;
  const std::string key = R"("num_key_value_heads": 8)";
  config.replace(config.find(key), key.size(), R"("num_key_value_heads": 5)");
  test::write_file(dir.file("config.json"), config);
  const auto r = fit({"--model", dir.file("config.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + dir.file("config.json") +
                       ": num_key_value_heads: 5 does not divide num_attention_heads 32 "
                       "(grouped-query attention shares each KV head among an equal number of "
                       "attention heads)\n");
}

// A float32 checkpoint on vLLM: the refusal speaks of the config's dtype, not of GGUF.
TEST(CliModelFiles, float32ConfigOnVllmSpeaksOfTheDtype) {
  test::TempDir dir;
  std::string config = test::kLlama31_8bConfig;
  const std::string dtype = R"("torch_dtype": "bfloat16")";
  config.replace(config.find(dtype), dtype.size(), R"("torch_dtype": "float32")");
  std::filesystem::create_directories(dir.file("llama-f32"));
  test::write_file(dir.file("llama-f32/config.json"), config);
  const auto r =
      test::run(test::gputco_exe(),
                {"throughput", "--model", dir.file("llama-f32"), "--gpu", "h100-sxm", "--engine",
                 "vllm", "--input-tokens", "1000", "--output-tokens", "1000", "--max-batch"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("vLLM does not serve F32 weights: F32 is the checkpoint's dtype "
                       "(float32, as in a config.json's torch_dtype)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("GGUF"), std::string::npos) << r.err;
}

// The catalog's hybrid, Qwen3-Next 80B-A3B, through fit and throughput. 4 streams x 32,768
// tokens: 12 attention layers x 32,768 x 2 KV heads x 256 x 4 bytes x 4 = 3 GiB of KV cache;
// 36 DeltaNet layers x 548,864 f32 x 4 bytes x 4 streams = 316,145,664 bytes = 0.2944 GiB
// of recurrent state. vLLM on 2 H100 (expert parallel, attention data parallel): each GPU
// holds half a sequence's state, 79,036,416 / 2 bytes.
TEST(CliModelFiles, hybridCatalogModelFitsAndServes) {
  const auto r = fit({"--model", "qwen3-next-80b-a3b", "--quant", "Q4_K_M", "--gpu", "h100-sxm",
                      "--context", "32768", "--streams", "4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["model"], "qwen3-next-80b-a3b");
  EXPECT_DOUBLE_EQ(j["memory"]["kv_cache_gib"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(j["memory"]["recurrent_state_gib"].get<double>(), 316145664.0 / 1073741824.0);
  EXPECT_EQ(j["results"][0]["verdict"], "fits");
  const auto t =
      test::run(test::gputco_exe(),
                {"throughput", "--model", "Qwen/Qwen3-Next-80B-A3B-Instruct", "--quant", "FP8",
                 "--gpu", "h100-sxm", "--count", "2", "--engine", "vllm", "--input-tokens", "1000",
                 "--output-tokens", "1000", "--max-batch", "--json"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const json tj = json::parse(t.out);
  EXPECT_NEAR(tj["memory_per_gpu"]["recurrent_state_per_sequence_gib"].get<double>(),
              39518208.0 / 1073741824.0, 1e-12);
  EXPECT_GT(tj["output_tokens_per_s"].get<double>(), 0);
}

// Ids ignore case, and a catalog model answers to its Hugging Face repository id.
TEST(CliModelFiles, idsIgnoreCaseAndRepoIdsAreAliases) {
  const auto r = fit({"--model", "meta-llama/Llama-3.3-70B-Instruct", "--quant", "q4_k_m", "--gpu",
                      "H100-SXM", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["model"], "llama-3.3-70b");
  EXPECT_EQ(j["quant"], "Q4_K_M");
  EXPECT_EQ(j["results"][0]["gpu"], "h100-sxm");
  const auto upper =
      fit({"--model", "Llama-3.3-70B", "--quant", "Q4_K_M", "--gpu", "h100-sxm", "--json"});
  ASSERT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_EQ(json::parse(upper.out)["model"], "llama-3.3-70b");
  // A near miss is suggested.
  const auto typo = fit({"--model", "lama-3.3-70b", "--quant", "Q4_K_M"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.err,
            "gputco: fit: --model: unknown model 'lama-3.3-70b'; did you mean 'llama-3.3-70b'? "
            "(gputco catalog list models, or the path of a config.json or GGUF file)\n");
}

// A Hugging Face repo id the catalog does not know is never fetched.
TEST(CliModelFiles, unknownRepoIdIsNotFetched) {
  const auto r = fit({"--model", "Qwen/Qwen3-Next-80B-A3B-Thinking", "--quant", "Q4_K_M"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(
                "gputco never downloads: save "
                "https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Thinking/resolve/main/config.json"),
            std::string::npos)
      << r.err;
}

// model = FILE in a scenario, relative to the scenario's folder; no quant: the file's own.
TEST(CliModelFiles, planWithAModelFile) {
  test::TempDir dir;
  test::llama31_8b_q4_k_m().write(dir.file("llama.gguf"));
  const std::string scenario =
      "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = llama.gguf\ncache_type_k = q8_0\n"
      "[option:a]\nkind = rent_hourly\ngpu = rtx-4090\nrate_per_gpu_hour = 0.5\n";
  test::write_file(dir.file("plan.ini"), scenario);
  const auto r = test::run(test::gputco_exe(),
                           {"plan", dir.file("plan.ini"), "-o", dir.file("plan.xlsx"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // The file's bytes less its token embedding (295,501,824 bytes, host RAM).
  EXPECT_DOUBLE_EQ(j["options"][0]["fit"]["weights_gib"].get<double>(),
                   (4912898304.0 - 295501824.0) / 1073741824.0);
  // K at q8_0, V at f16: 0.5 GiB x 8.5 / 16 + 0.5 GiB.
  EXPECT_DOUBLE_EQ(j["options"][0]["fit"]["kv_cache_gib"].get<double>(), 0.765625);

  test::write_file(dir.file("broken.gguf"), "GGUF");
  test::write_file(dir.file("broken.ini"),
                   "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = broken.gguf\n"
                   "[option:a]\nkind = rent_hourly\ngpu = rtx-4090\nrate_per_gpu_hour = 0.5\n");
  const auto bad = test::run(test::gputco_exe(),
                             {"plan", dir.file("broken.ini"), "-o", dir.file("broken.xlsx")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "error: " + dir.file("broken.ini") +
                         ":4: [workload] model: " + dir.file("broken.gguf") +
                         ": byte 4: truncated: expected 4 byte(s) of the version, the file ends "
                         "at byte 4\n");
}

}  // namespace
}  // namespace gputco
