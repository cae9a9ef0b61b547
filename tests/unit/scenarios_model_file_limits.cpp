// Model files as an adversary writes them (issue #39): every number read from a config.json or
// a GGUF is range-checked in 64 bits before it becomes an index, a size or a 32-bit value; NaN,
// infinity and negatives are refused naming the file's key; the architecture must hold
// together (KV heads dividing the heads, experts used within the experts, layer lists within
// the layers); counts that size allocations are bounded first; JSON keys are unique.
// Each test is one kind of fault, with the cases that once crashed or passed silently.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "scenarios/gguf_model.hpp"
#include "scenarios/hf_config.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"

namespace gputco {
namespace {

using test::GgmlTypeId;
using test::GgufWriter;

// The problem read_hf_config_text finds in `json`, "(no error)" when none.
std::string config_problem(const std::string& json) {
  try {
    read_hf_config_text(json, "config.json");
  } catch (const ModelFileError& e) {
    return e.problem();
  }
  return "(no error)";
}

// Qwen3-30B-A3B's config.json (tests/support/hf_configs.hpp) with `field` replaced by `value`
// (JSON text), or added when absent.
std::string qwen3_moe_with(const std::string& field, const std::string& value) {
  std::string json = test::kQwen3_30bA3bConfig;
  const std::string key = "\"" + field + "\":";
  if (const auto at = json.find(key); at != std::string::npos) {
    const auto end = json.find_first_of(",}", json.find_first_not_of(' ', at + key.size()) + 1);
    const auto start = at + key.size();
    // A list value ends at its bracket.
    const auto close =
        json[json.find_first_not_of(' ', start)] == '[' ? json.find(']', start) + 1 : end;
    json.replace(start, close - start, " " + value);
  } else {
    json.insert(json.rfind('}'), ", " + key + " " + value);
  }
  return json;
}

TEST(ModelFileLimits, layerListIndicesAreCheckedIn64BitsBeforeIndexing) {
  // 4294967297 = 2^32 + 1 read as a 32-bit int was 1 (inside 0..47) and then indexed a
  // vector of 48 at 4294967297: signal 11 in fit, throughput, the finder and plan.
  EXPECT_EQ(config_problem(qwen3_moe_with("mlp_only_layers", "[4294967297]")),
            "mlp_only_layers: expected layer numbers 0..47, got 4294967297");
  // 2^53 + 1 is no double; 2^64 - 1 no signed 64-bit integer: refused, never wrapped.
  EXPECT_EQ(config_problem(qwen3_moe_with("mlp_only_layers", "[9007199254740993]")),
            "mlp_only_layers: expected layer numbers 0..47, got 9007199254740993");
  EXPECT_EQ(config_problem(qwen3_moe_with("moe_layers", "[18446744073709551615]")),
            "moe_layers: expected a whole number, got 18446744073709551615, beyond any model's");
  EXPECT_EQ(config_problem(qwen3_moe_with("moe_layers", "[-1]")),
            "moe_layers: expected layer numbers 0..47, got -1");
  EXPECT_EQ(config_problem(qwen3_moe_with("mlp_only_layers", "[1.5]")),
            "mlp_only_layers: expected a whole number, got 1.5");
  EXPECT_EQ(config_problem(qwen3_moe_with("mlp_only_layers", "[\"3\"]")),
            "mlp_only_layers: expected layer numbers 0..47, got \"3\"");
  // In range: read (layer 47 has a dense FFN).
  EXPECT_EQ(config_problem(qwen3_moe_with("mlp_only_layers", "[47]")), "(no error)");
}

TEST(ModelFileLimits, widthsThatAreProductsAreMultipliedIn64Bits) {
  // A Mamba d_inner of expand 64 x hidden 10^8 = 6.4e9 wrapped to 2,105,032,704 in 32 bits
  // (a recurrent state of 9,536 GiB instead of 28,992) and was planned.
  const std::string mamba = R"({"model_type": "mamba", "hidden_size": 100000000,
      "num_hidden_layers": 64, "state_size": 16, "conv_kernel": 4, "expand": 64,
      "time_step_rank": 160, "vocab_size": 50280})";
  EXPECT_EQ(config_problem(mamba),
            "expand x hidden_size: 64 x 100000000 = 6400000000 is wider than any model (at most "
            "100000000)");
  // time_step_rank was read as an int without a check: 2^32 + 5 became 5.
  const std::string rank = R"({"model_type": "mamba", "hidden_size": 2560,
      "num_hidden_layers": 64, "state_size": 16, "conv_kernel": 4, "expand": 2,
      "time_step_rank": 4294967301, "vocab_size": 50280})";
  EXPECT_EQ(config_problem(rank),
            "time_step_rank: expected a whole number between 1 and 100000000, got 4294967301");
}

TEST(ModelFileLimits, duplicateJsonKeysAreRefusedNamingThePath) {
  // nlohmann (and Python's json) keep the last of two values: 1 layer instead of 32, silently.
  std::string twice = test::kLlama31_8bConfig;
  twice.insert(twice.rfind('}'), ", \"num_hidden_layers\": 1");
  EXPECT_EQ(config_problem(twice),
            "num_hidden_layers: given twice in one object (JSON keys must be unique: which value "
            "would count?)");
  std::string nested = test::kLlama31_8bConfig;
  nested.replace(nested.find("\"factor\": 8.0"), 13, "\"factor\": 8.0, \"factor\": 32.0");
  EXPECT_EQ(config_problem(nested),
            "rope_scaling.factor: given twice in one object (JSON keys must be unique: which value "
            "would count?)");
  // The same key in two objects is no duplicate.
  EXPECT_EQ(config_problem(R"({"a": {"x": 1}, "b": {"x": 2}, "num_hidden_layers": 2})"),
            "hidden_size: missing (the hidden size)");
}

TEST(ModelFileLimits, aNumberBeyondADoubleIsBadInputNotARuntimeError) {
  // nlohmann throws out_of_range (not parse_error) for 1e400: it reached main as exit 1.
  std::string json = test::kLlama31_8bConfig;
  json.replace(json.find("\"factor\": 8.0"), 13, "\"factor\": 1e400");
  EXPECT_EQ(config_problem(json), "out of range: number overflow parsing '1e400'");
}

// A small Llama-shaped GGUF (4 layers, hidden 256, 8 heads, 2 KV heads, FFN 512, vocabulary
// 1000, F32), with `edit` applied to its metadata before the tensors.
template <typename Edit>
std::string gguf_problem(const std::string& name, Edit edit, int table_layers = 4) {
  GgufWriter w;
  w.str("general.architecture", "llama");
  edit(w);
  w.tensor("token_embd.weight", {256, 1000}, GgmlTypeId::f32, test::f32(256 * 1000));
  for (int l = 0; l < table_layers; ++l) {
    w.tensor("blk." + std::to_string(l) + ".attn_q.weight", {256, 256}, GgmlTypeId::f32,
             test::f32(256 * 256));
  }
  const std::string path = test::scratch_folder("limits-" + name) + "/m.gguf";
  w.write(path);
  try {
    read_gguf_model(path);
  } catch (const ModelFileError& e) {
    return e.problem();
  }
  return "(no error)";
}

// The small model's keys but `except` (which the test writes itself).
GgufWriter& llama_keys(GgufWriter& w, const std::string& except = "", std::uint32_t kv = 2) {
  const std::pair<const char*, std::uint32_t> keys[] = {{"llama.block_count", 4},
                                                        {"llama.embedding_length", 256},
                                                        {"llama.attention.head_count", 8},
                                                        {"llama.attention.head_count_kv", kv},
                                                        {"llama.context_length", 8192}};
  for (const auto& [key, value] : keys) {
    if (key != except) w.u32(key, value);
  }
  return w;
}

TEST(ModelFileLimits, ggufNumbersThatAreNotFiniteOrNegativeAreRefusedNamingTheKey) {
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(gguf_problem("ok", [](GgufWriter& w) { llama_keys(w); }), "(no error)");
  // A NaN or negative KV head count was planned with a KV cache of 0.
  EXPECT_EQ(gguf_problem("kv-nan",
                         [&](GgufWriter& w) {
                           llama_keys(w, "llama.attention.head_count_kv");
                           w.f32("llama.attention.head_count_kv", kNan);
                         }),
            "llama.attention.head_count_kv: expected a finite number, got nan");
  EXPECT_EQ(gguf_problem("kv-negative",
                         [](GgufWriter& w) {
                           w.u32("llama.block_count", 4)
                               .u32("llama.embedding_length", 256)
                               .u32("llama.attention.head_count", 8)
                               .i32_array("llama.attention.head_count_kv", {2, -2, 2, 2});
                         }),
            "llama.attention.head_count_kv: expected a whole number between 0 and 100000, got -2");
  // Heads of 3e9 overflowed an int and were reported as "missing".
  EXPECT_EQ(gguf_problem("heads-3e9",
                         [](GgufWriter& w) {
                           llama_keys(w, "llama.attention.head_count");
                           w.u64("llama.attention.head_count", 3000000000ull);
                         }),
            "llama.attention.head_count: expected a whole number between 0 and 100000, got "
            "3000000000");
  // An infinite RoPE factor and a file type of 1e30 passed without a word.
  EXPECT_EQ(gguf_problem("rope-inf",
                         [&](GgufWriter& w) {
                           llama_keys(w);
                           w.f32("llama.rope.scaling.factor", kInf)
                               .u32("llama.rope.scaling.original_context_length", 8192);
                         }),
            "llama.rope.scaling.factor: expected a finite number, got inf");
  EXPECT_EQ(gguf_problem("file-type",
                         [](GgufWriter& w) {
                           llama_keys(w);
                           w.f32("general.file_type", 1e30f);
                         }),
            "general.file_type: expected llama.cpp's file type, a whole number from 0, got "
            "1.0000000150474662e+30");
}

TEST(ModelFileLimits, ggufArchitectureMustHoldTogether) {
  // KV heads that do not divide the heads were accepted.
  EXPECT_EQ(gguf_problem("kv-3-of-8", [](GgufWriter& w) { llama_keys(w, "", 3); }),
            "llama.attention.head_count_kv: 3 does not divide 8 (layer 0): grouped-query "
            "attention shares each KV head among an equal number of attention heads");
  EXPECT_EQ(gguf_problem("experts",
                         [](GgufWriter& w) {
                           llama_keys(w);
                           w.u32("llama.expert_count", 8).u32("llama.expert_used_count", 9);
                         }),
            "llama.expert_used_count: 9 experts used per token, more than the 8 of "
            "llama.expert_count");
  // The hidden size is token_embd's rows: a width that disagrees is a broken header.
  EXPECT_EQ(gguf_problem("hidden",
                         [](GgufWriter& w) {
                           llama_keys(w, "llama.embedding_length");
                           w.u32("llama.embedding_length", 4096);
                         }),
            "llama.embedding_length: 4096 does not match token_embd.weight's rows of 256 values");
  // The tensor table's blocks against block_count: one beyond, or layers without tensors.
  EXPECT_EQ(gguf_problem(
                "blocks-beyond", [](GgufWriter& w) { llama_keys(w); }, 5),
            "llama.block_count: 4 layers, but the tensor table holds blocks 0 to 4");
  EXPECT_EQ(gguf_problem(
                "blocks-missing", [](GgufWriter& w) { llama_keys(w); }, 2),
            "llama.block_count: 4 layers, but the tensor table holds blocks 0 to 1");
}

TEST(ModelFileLimits, ggufCountsThatSizeAllocationsAreBoundedFirst) {
  // 1e8 blocks took 10.8 s and 2.3 GB before anything was said, 1e9 ended in bad_alloc.
  EXPECT_EQ(gguf_problem("blocks-1e9",
                         [](GgufWriter& w) {
                           llama_keys(w, "llama.block_count");
                           w.u64("llama.block_count", 1000000000ull);
                         }),
            "llama.block_count: expected a whole number between 0 and 100000, got 1000000000");
  EXPECT_EQ(gguf_problem("blocks-2^32",
                         [](GgufWriter& w) {
                           llama_keys(w, "llama.block_count");
                           w.u64("llama.block_count", 4294967300ull);
                         }),
            "llama.block_count: expected a whole number between 0 and 100000, got 4294967300");
}

}  // namespace
}  // namespace gputco
