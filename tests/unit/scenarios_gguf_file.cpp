// GGUF headers: metadata and tensor table read locally, exact weight bytes, bad files refused
// with the byte offset. The files are written by the test (header and table; the data is a
// sparse hole, never read).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "scenarios/gguf_file.hpp"
#include "scenarios/gguf_model.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/model_files.hpp"
#include "tests/support/gguf_writer.hpp"
#include "tests/support/hf_configs.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using test::GgmlTypeId;
using test::GgufWriter;

using test::f32;
using test::llama31_8b_q4_k_m;
using test::mxfp4;
using test::q8_0;

std::string write(const std::string& test, const GgufWriter& w, std::uint64_t size = 0) {
  const std::string path = test::scratch_folder(test) + "/model.gguf";
  w.write(path, size);
  return path;
}

// The expected problem of reading `path`.
std::string problem_of(const std::string& path) {
  try {
    read_gguf_model(path);
  } catch (const ModelFileError& e) {
    return e.problem();
  }
  return "(no error)";
}

// Exact bytes per group. By hand: Q4_K is 0.5625 bytes a weight, Q6_K 0.8203125.
//   token_embd 4096 x 128256 = 525,336,576 x 0.5625 = 295,501,824
//   output     525,336,576 x 0.8203125                = 430,940,160
//   a layer with more bits (16 of 32: 0-3, 6, 9, ..., 27, 28-31):
//     q, o 16,777,216 x 0.5625 = 9,437,184 each; k 4,194,304 x 0.5625 = 2,359,296;
//     v 4,194,304 x 0.8203125 = 3,440,640; gate, up 58,720,256 x 0.5625 = 33,030,144 each;
//     down 58,720,256 x 0.8203125 = 48,168,960; norms 2 x 4096 x 4 = 32,768: 138,936,320
//   any other layer: v 2,359,296 and down 33,030,144 instead: 122,716,160
//   other = 16 x 138,936,320 + 16 x 122,716,160 + output_norm 16,384 + rope_freqs 256
//         = 4,186,456,320; total 4,912,898,304 bytes = 4.5755 GiB, the 4.58 GiB that
//   llama.cpp's tools/quantize/README.md publishes (tests/data/reference/gguf_sizes.csv).
TEST(GgufFile, llama31Q4KMExactBytesByGroup) {
  const std::string path = write("gguf-llama31", llama31_8b_q4_k_m());
  const GgufModel g = read_gguf_model(path);
  const ModelArch& m = g.arch;
  ASSERT_TRUE(m.file_weights.has_value());
  const FileWeights& w = *m.file_weights;
  EXPECT_EQ(w.quant, "Q4_K_M");
  EXPECT_DOUBLE_EQ(w.embedding_bytes, 295501824.0);
  EXPECT_DOUBLE_EQ(w.output_bytes, 430940160.0);
  EXPECT_DOUBLE_EQ(w.experts_bytes, 0.0);
  EXPECT_DOUBLE_EQ(w.other_bytes, 4186456320.0);
  EXPECT_DOUBLE_EQ(w.total_bytes(), 4912898304.0);
  EXPECT_NEAR(w.total_bytes() / 1073741824.0, 4.58, 0.005);
  // 8,030,261,248 weights (Meta's published count) + 64 rope_freqs values.
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 8030261312.0);
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.hidden, 4096);
  EXPECT_EQ(m.heads, 32);
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.vocab_size, 128256);
  EXPECT_EQ(m.max_context, 131072);
  EXPECT_FALSE(m.tied_embeddings);
  EXPECT_EQ(m.name, "Meta Llama 3.1 8B Instruct");
  EXPECT_EQ(m.id, "model");
  // The engine takes the file's bytes for its own format, and estimates any other.
  EXPECT_DOUBLE_EQ(weights_bytes(m, Quant{"q4_k_m", 4.89, "mix"}), 4912898304.0);
  EXPECT_NE(weights_bytes(m, Quant{"Q8_0", 8.5, "block"}), 4912898304.0);
}

// A 400 GB model answers from its header: the file is a sparse hole past the table.
TEST(GgufFile, headerOnlyOfAHugeFile) {
  GgufWriter w = llama31_8b_q4_k_m();
  const std::string path = write("gguf-huge", w, 400'000'000'000ull);
  const GgufFile f = read_gguf_header(path);
  EXPECT_EQ(f.file_bytes, 400'000'000'000ull);
  EXPECT_EQ(f.tensors.size(), 2u + 32u * 9u + 2u);
  EXPECT_EQ(f.version, 3u);
  ASSERT_NE(f.find("tokenizer.ggml.tokens"), nullptr);
  EXPECT_EQ(f.find("tokenizer.ggml.tokens")->count, 3u);  // strings counted, not kept
  EXPECT_EQ(f.find("general.architecture")->text, "llama");
}

// gpt-oss 120B as ggml-org/gpt-oss-120b-GGUF stores it: experts MXFP4, the rest Q8_0 and F32;
// sliding and full layers alternate (llama.cpp: every other layer, window 128).
TEST(GgufFile, moeExpertsAndSlidingLayers) {
  GgufWriter w;
  w.str("general.architecture", "gpt-oss")
      .u32("general.file_type", 38)  // MXFP4_MOE
      .u32("gpt-oss.block_count", 36)
      .u32("gpt-oss.context_length", 131072)
      .u32("gpt-oss.embedding_length", 2880)
      .u32("gpt-oss.attention.head_count", 64)
      .u32("gpt-oss.attention.head_count_kv", 8)
      .u32("gpt-oss.attention.key_length", 64)
      .u32("gpt-oss.attention.value_length", 64)
      .u32("gpt-oss.attention.sliding_window", 128)
      .u32("gpt-oss.expert_count", 128)
      .u32("gpt-oss.expert_used_count", 4)
      .f32("gpt-oss.rope.scaling.factor", 32)
      .u32("gpt-oss.rope.scaling.original_context_length", 4096);
  const std::uint64_t hidden = 2880, vocab = 201088;
  w.tensor("token_embd.weight", {hidden, vocab}, GgmlTypeId::q8_0, q8_0(hidden * vocab));
  w.tensor("output.weight", {hidden, vocab}, GgmlTypeId::q8_0, q8_0(hidden * vocab));
  // One layer's experts: gate and up 128 x 2880 x 2880 each, down the same.
  const std::uint64_t expert = 2880 * 2880;
  for (int i = 0; i < 36; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "ffn_gate_exps.weight", {hidden, hidden, 128}, GgmlTypeId::mxfp4,
             mxfp4(128 * expert));
    w.tensor(b + "ffn_up_exps.weight", {hidden, hidden, 128}, GgmlTypeId::mxfp4,
             mxfp4(128 * expert));
    w.tensor(b + "ffn_down_exps.weight", {hidden, hidden, 128}, GgmlTypeId::mxfp4,
             mxfp4(128 * expert));
    w.tensor(b + "attn_q.weight", {hidden, 4096}, GgmlTypeId::q8_0, q8_0(hidden * 4096));
  }
  const GgufModel g = read_gguf_model(write("gguf-gpt-oss", w));
  const ModelArch& m = g.arch;
  EXPECT_EQ(m.file_weights->quant, "MXFP4");
  // 36 x 3 x 128 x 8,294,400 = 114,661,785,600 expert weights x 17 / 32 bytes.
  EXPECT_DOUBLE_EQ(m.file_weights->experts_bytes, 114661785600.0 * 17 / 32);
  EXPECT_EQ(m.swa_layers, 18);
  EXPECT_EQ(m.swa_window, 128);
  EXPECT_EQ(m.experts, 128);
  EXPECT_EQ(m.experts_active, 4);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_EQ(m.max_context_scaled, 0);  // 32 x 4,096 = 131,072: no further
  // Active: all but the embedding lookup and the 124 of 128 experts not used.
  const double total = 2 * 579133440.0 + 114661785600.0 + 36 * 11796480.0;
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, total);
  EXPECT_DOUBLE_EQ(m.active_params_b * 1e9, total - 579133440.0 - 114661785600.0 * 124 / 128);
}

// A hybrid (Qwen3-Next layout): every 4th layer attends, the others keep a Gated DeltaNet
// state sized by the ssm keys as llama.cpp reads them; per-layer KV heads as an array.
TEST(GgufFile, hybridRecurrentLayers) {
  GgufWriter w;
  w.str("general.architecture", "qwen3next")
      .u32("qwen3next.block_count", 8)
      .u32("qwen3next.context_length", 262144)
      .u32("qwen3next.embedding_length", 2048)
      .u32("qwen3next.attention.head_count", 16)
      .u32("qwen3next.attention.head_count_kv", 2)
      .u32("qwen3next.attention.key_length", 256)
      .u32("qwen3next.attention.value_length", 256)
      .u32("qwen3next.full_attention_interval", 4)
      .u32("qwen3next.ssm.conv_kernel", 4)
      .u32("qwen3next.ssm.inner_size", 4096)
      .u32("qwen3next.ssm.state_size", 128)
      .u32("qwen3next.ssm.group_count", 16)
      .u32("qwen3next.ssm.time_step_rank", 32);
  w.tensor("token_embd.weight", {2048, 1024}, GgmlTypeId::f32, f32(2048 * 1024));
  const ModelArch m = read_gguf_model(write("gguf-hybrid", w)).arch;
  EXPECT_EQ(m.layers_without_kv, 6);
  EXPECT_EQ(m.recurrent_layers, 6);
  // n_embd_r + n_embd_s = (4 - 1) x (4,096 + 2 x 16 x 128) + 128 x 4,096 = 24,576 + 524,288.
  EXPECT_DOUBLE_EQ(m.recurrent_state_elements, 548864.0);
  EXPECT_TRUE(m.tied_embeddings);  // no output.weight
  EXPECT_EQ(m.vocab_size, 1024);   // the embedding's rows
}

// Jamba's per-layer KV heads: 0 marks a Mamba layer (llama.cpp: recurrent when n_head_kv is 0).
TEST(GgufFile, perLayerKvHeadsArray) {
  GgufWriter w;
  w.str("general.architecture", "jamba")
      .u32("jamba.block_count", 4)
      .u32("jamba.context_length", 262144)
      .u32("jamba.embedding_length", 4096)
      .u32("jamba.attention.head_count", 32)
      .i32_array("jamba.attention.head_count_kv", {0, 0, 8, 0})
      .u32("jamba.ssm.conv_kernel", 4)
      .u32("jamba.ssm.inner_size", 8192)
      .u32("jamba.ssm.state_size", 16);
  w.tensor("token_embd.weight", {4096, 65536}, GgmlTypeId::f32, f32(4096ull * 65536));
  const ModelArch m = read_gguf_model(write("gguf-jamba", w)).arch;
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.layers_without_kv, 3);
  EXPECT_EQ(m.recurrent_layers, 3);
  // Mamba 1 (no groups): (4 - 1) x 8,192 + 16 x 8,192 = 155,648.
  EXPECT_DOUBLE_EQ(m.recurrent_state_elements, 155648.0);
}

// MLA (deepseek2): the latent kv_lora_rank and the RoPE key are cached.
TEST(GgufFile, mlaRanks) {
  GgufWriter w;
  w.str("general.architecture", "deepseek2")
      .u32("deepseek2.block_count", 61)
      .u32("deepseek2.context_length", 163840)
      .u32("deepseek2.embedding_length", 7168)
      .u32("deepseek2.attention.head_count", 128)
      .u32("deepseek2.attention.head_count_kv", 1)
      .u32("deepseek2.attention.key_length", 576)
      .u32("deepseek2.attention.value_length", 512)
      .u32("deepseek2.attention.kv_lora_rank", 512)
      .u32("deepseek2.rope.dimension_count", 64)
      .u32("deepseek2.expert_count", 256)
      .u32("deepseek2.expert_used_count", 8);
  w.tensor("token_embd.weight", {7168, 129280}, GgmlTypeId::q8_0, q8_0(7168ull * 129280));
  w.tensor("output.weight", {7168, 129280}, GgmlTypeId::q8_0, q8_0(7168ull * 129280));
  const ModelArch m = read_gguf_model(write("gguf-mla", w)).arch;
  EXPECT_TRUE(m.is_mla());
  // 61 x (512 + 64) x 2 bytes = 70,272 per token, as the catalog's DeepSeek V3.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, KvCacheType::f16, 256), 256 * 70272.0);
}

// A split model: every part's tensors count.
TEST(GgufFile, splitModelReadsEveryPart) {
  const std::string dir = test::scratch_folder("gguf-split");
  for (int part = 1; part <= 2; ++part) {
    GgufWriter w;
    w.u32("split.no", static_cast<std::uint32_t>(part - 1)).u32("split.count", 2);
    if (part == 1) {
      w.str("general.architecture", "llama")
          .u32("llama.block_count", 1)
          .u32("llama.embedding_length", 256)
          .u32("llama.attention.head_count", 2)
          .u32("llama.context_length", 4096);
    }
    w.tensor(part == 1 ? "token_embd.weight" : "output.weight", {256, 1000}, GgmlTypeId::f32,
             f32(256 * 1000));
    w.write(dir + "/m-0000" + std::to_string(part) + "-of-00002.gguf");
  }
  const GgufModel g = read_gguf_model(dir + "/m-00001-of-00002.gguf");
  EXPECT_EQ(g.files.size(), 2u);
  EXPECT_DOUBLE_EQ(g.arch.file_weights->embedding_bytes, 1024000.0);
  EXPECT_DOUBLE_EQ(g.arch.file_weights->output_bytes, 1024000.0);
  std::filesystem::remove(dir + "/m-00002-of-00002.gguf");
  EXPECT_NE(problem_of(dir + "/m-00001-of-00002.gguf").find("missing: the split model"),
            std::string::npos);
}

// Bad files name the byte offset; nothing is allocated from a hostile count.
TEST(GgufFile, notAGgufFile) {
  const std::string path = test::scratch_folder("gguf-bad-magic") + "/x.gguf";
  test::write_file(path, "PK\x03\x04 a zip file");
  EXPECT_EQ(problem_of(path),
            "byte 0: not a GGUF file: it starts with 'PK\\x03\\x04', expected 'GGUF'");
  test::write_file(path, "GG");
  EXPECT_EQ(problem_of(path), "byte 0: not a GGUF file: 2 byte(s), too short for the 'GGUF' magic");
}

TEST(GgufFile, truncatedHeaderNamesTheOffset) {
  const GgufWriter w = llama31_8b_q4_k_m();
  const std::string header = w.header();
  const std::string path = test::scratch_folder("gguf-cut") + "/cut.gguf";
  // Cut inside the last tensor's entry (its 8-byte data offset).
  const std::size_t cut = header.size() - 4;
  test::write_file(path, header.substr(0, cut));
  EXPECT_EQ(problem_of(path),
            "byte " + std::to_string(cut - 4) +
                ": truncated: expected 8 byte(s) of the data offset of tensor 'output.weight', "
                "the file ends at byte " +
                std::to_string(cut));
  // Cut before the table: the counts cannot fit in what is left.
  test::write_file(path, header.substr(0, 1000));
  EXPECT_EQ(problem_of(path),
            "byte 8: 292 tensors and 12 metadata entries cannot fit in the 1000 byte(s) of the "
            "file");
}

TEST(GgufFile, truncatedDataNamesTheTensor) {
  const GgufWriter w = llama31_8b_q4_k_m();
  const std::string path = write("gguf-cut-data", w, w.file_size() - 1);
  const std::string problem = problem_of(path);
  EXPECT_NE(problem.find("truncated: the data of tensor 'output.weight'"), std::string::npos)
      << problem;
  EXPECT_NE(problem.find("an incomplete download?"), std::string::npos);
}

TEST(GgufFile, hostileCountsRefusedBeforeAllocating) {
  GgufWriter w;
  // A metadata count of 2^60 in a file of a few dozen bytes.
  w.raw_metadata("", 1ull << 60);
  const std::string path = write("gguf-hostile", w, 64);
  EXPECT_NE(problem_of(path).find("cannot fit in the 64 byte(s) of the file"), std::string::npos)
      << problem_of(path);
  // A string length beyond the file.
  std::string raw;
  for (int i = 0; i < 8; ++i) raw.push_back(i == 7 ? '\x7f' : '\xff');  // key length 2^63-ish
  GgufWriter s;
  s.raw_metadata(raw, 1);
  const std::string path2 = write("gguf-hostile-string", s, 64);
  EXPECT_NE(problem_of(path2).find("byte 24: metadata key 0: length"), std::string::npos)
      << problem_of(path2);
}

TEST(GgufFile, versionsAndTypes) {
  GgufWriter w = llama31_8b_q4_k_m();
  w.version(1);
  EXPECT_EQ(problem_of(write("gguf-v1", w)),
            "byte 4: GGUF version 1 is not supported (llama.cpp reads 2 and 3)");
  w.version(0x03000000);
  EXPECT_NE(problem_of(write("gguf-be", w)).find("big-endian"), std::string::npos);
  GgufWriter t;
  t.str("general.architecture", "llama");
  t.tensor("x.weight", {100, 2}, GgmlTypeId::q4_k, 144);  // 100 is not a whole 256-block
  EXPECT_NE(problem_of(write("gguf-block", t))
                .find("tensor 'x.weight': 100 values per row is not a whole number of Q4_K "
                      "blocks of 256"),
            std::string::npos);
  GgufWriter u;
  u.tensor("x.weight", {32}, static_cast<GgmlTypeId>(77), 32);
  EXPECT_NE(problem_of(write("gguf-type", u)).find("unknown ggml type 77"), std::string::npos);
}

TEST(GgufFile, missingArchitectureKeyNamed) {
  GgufWriter w;
  w.str("general.architecture", "llama").u32("llama.embedding_length", 256);
  w.tensor("token_embd.weight", {256, 10}, GgmlTypeId::f32, f32(2560));
  EXPECT_EQ(problem_of(write("gguf-no-layers", w)), "llama.block_count: missing (the layer count)");
}

// A GGUF read through the model-file entry point gives its own quant, exact.
TEST(GgufFile, nativeQuantIsTheFilesBitsPerWeight) {
  const std::string path = write("gguf-native", llama31_8b_q4_k_m());
  const ModelFile f = read_model_file(path);
  EXPECT_EQ(f.kind, "GGUF");
  EXPECT_EQ(f.native_quant.id, "Q4_K_M");
  // 4,912,898,304 bytes x 8 / 8,030,261,312 weights = 4.894 bits.
  EXPECT_DOUBLE_EQ(f.native_quant.bits_per_weight, 4912898304.0 * 8 / 8030261312.0);
}

// A config.json and the GGUF of the same model give the same memory within 1 %: the GGUF's
// exact Q4_K_M bytes (4,912,898,304) against the Q4_K_M recipe over the config's parameter
// groups (4.80 bits on the 6,979,588,096 body weights, 4.5 on the embedding, Q6_K on the
// output: 4,914,194,842 bytes, +0.03 %); the same KV cache and compute buffer.
TEST(GgufFile, configAndGgufOfOneModelAgreeWithin1Percent) {
  const std::string dir = test::scratch_folder("pair-config");
  test::write_file(dir + "/config.json", test::kLlama31_8bConfig);
  const ModelFile config = read_model_file(dir);
  const ModelFile gguf = read_model_file(write("pair-gguf", llama31_8b_q4_k_m()));
  for (const int context : {8192, 131072}) {
    const MemoryBreakdown a = estimate_memory(
        FitRequest{config.model, Quant{"Q4_K_M", 4.89, "mix"}, context, 2, KvCacheType::q8_0});
    const MemoryBreakdown b =
        estimate_memory(FitRequest{gguf.model, gguf.native_quant, context, 2, KvCacheType::q8_0});
    EXPECT_NEAR(a.total_gib / b.total_gib, 1.0, 0.01) << context;
    EXPECT_NEAR(a.weights_gib / b.weights_gib, 1.0, 0.01);
    EXPECT_DOUBLE_EQ(a.kv_cache_gib, b.kv_cache_gib);
    EXPECT_DOUBLE_EQ(a.overhead_gib, b.overhead_gib);
  }
  EXPECT_NEAR(weights_bytes(config.model, Quant{"Q4_K_M", 4.89, "mix"}), 4914194841.6, 1.0);
}

}  // namespace
}  // namespace gputco
