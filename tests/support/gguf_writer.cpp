#include "tests/support/gguf_writer.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/support/process.hpp"

namespace gputco::test {

namespace {

constexpr std::uint64_t kAlignment = 32;

template <typename T>
void put(std::string& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff));
  }
}

void put_string(std::string& out, const std::string& s) {
  put<std::uint64_t>(out, s.size());
  out += s;
}

std::uint64_t aligned(std::uint64_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

GgufWriter& GgufWriter::u32(const std::string& key, std::uint32_t value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 4);
  put<std::uint32_t>(metadata_, value);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::i32(const std::string& key, std::int32_t value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 5);
  put<std::uint32_t>(metadata_, static_cast<std::uint32_t>(value));
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::u64(const std::string& key, std::uint64_t value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 10);
  put<std::uint64_t>(metadata_, value);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::f32(const std::string& key, float value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 6);
  std::uint32_t bits = 0;
  static_assert(sizeof bits == sizeof value);
  std::memcpy(&bits, &value, sizeof bits);
  put<std::uint32_t>(metadata_, bits);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::boolean(const std::string& key, bool value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 7);
  put<std::uint8_t>(metadata_, value ? 1 : 0);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::str(const std::string& key, const std::string& value) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 8);
  put_string(metadata_, value);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::i32_array(const std::string& key, const std::vector<std::int32_t>& values) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 9);
  put<std::uint32_t>(metadata_, 5);
  put<std::uint64_t>(metadata_, values.size());
  for (const std::int32_t v : values) put<std::uint32_t>(metadata_, static_cast<std::uint32_t>(v));
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::str_array(const std::string& key, const std::vector<std::string>& values) {
  put_string(metadata_, key);
  put<std::uint32_t>(metadata_, 9);
  put<std::uint32_t>(metadata_, 8);
  put<std::uint64_t>(metadata_, values.size());
  for (const std::string& v : values) put_string(metadata_, v);
  ++metadata_count_;
  return *this;
}

GgufWriter& GgufWriter::tensor(const std::string& name, const std::vector<std::uint64_t>& dims,
                               GgmlTypeId type, std::uint64_t data_bytes) {
  put_string(tensors_, name);
  put<std::uint32_t>(tensors_, static_cast<std::uint32_t>(dims.size()));
  for (const std::uint64_t d : dims) put<std::uint64_t>(tensors_, d);
  put<std::uint32_t>(tensors_, static_cast<std::uint32_t>(type));
  put<std::uint64_t>(tensors_, data_bytes_);
  data_bytes_ = aligned(data_bytes_ + data_bytes);
  ++tensor_count_;
  return *this;
}

GgufWriter& GgufWriter::raw_metadata(const std::string& bytes, std::uint64_t entries) {
  metadata_ += bytes;
  metadata_count_ += entries;
  return *this;
}

GgufWriter& GgufWriter::version(std::uint32_t v) {
  version_ = v;
  return *this;
}

std::string GgufWriter::header() const {
  std::string out = "GGUF";
  put<std::uint32_t>(out, version_);
  put<std::uint64_t>(out, tensor_count_);
  put<std::uint64_t>(out, metadata_count_);
  return out + metadata_ + tensors_;
}

std::uint64_t GgufWriter::file_size() const {
  return aligned(header().size()) + data_bytes_;
}

void GgufWriter::write(const std::string& path, std::uint64_t size) const {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string bytes = header();
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
  }
  // A hole, not bytes: the data is never read.
  std::filesystem::resize_file(path, size > 0 ? size : file_size());
}

namespace {

// llama.cpp's use_more_bits (src/llama-quant.cpp): the layers whose attn_v and ffn_down get
// Q6_K in a Q4_K_M file: the first and last eighth, and every third in between.
bool more_bits(int i, int n) {
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

}  // namespace

GgufWriter llama31_8b_q4_k_m() {
  GgufWriter w;
  w.str("general.architecture", "llama")
      .str("general.name", "Meta Llama 3.1 8B Instruct")
      .u32("general.file_type", 15)  // LLAMA_FTYPE_MOSTLY_Q4_K_M
      .u32("llama.block_count", 32)
      .u32("llama.context_length", 131072)
      .u32("llama.embedding_length", 4096)
      .u32("llama.feed_forward_length", 14336)
      .u32("llama.attention.head_count", 32)
      .u32("llama.attention.head_count_kv", 8)
      .u32("llama.rope.dimension_count", 128)
      .u32("llama.vocab_size", 128256)
      .str_array("tokenizer.ggml.tokens", {"<|begin_of_text|>", "hello", "world"});
  const std::uint64_t vocab = 128256, hidden = 4096, kv = 1024, ffn = 14336;
  w.tensor("token_embd.weight", {hidden, vocab}, GgmlTypeId::q4_k, q4_k(hidden * vocab));
  w.tensor("rope_freqs.weight", {64}, GgmlTypeId::f32, f32(64));
  for (int i = 0; i < 32; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    const bool more = more_bits(i, 32);
    w.tensor(b + "attn_norm.weight", {hidden}, GgmlTypeId::f32, f32(hidden));
    w.tensor(b + "attn_q.weight", {hidden, hidden}, GgmlTypeId::q4_k, q4_k(hidden * hidden));
    w.tensor(b + "attn_k.weight", {hidden, kv}, GgmlTypeId::q4_k, q4_k(hidden * kv));
    w.tensor(b + "attn_v.weight", {hidden, kv}, more ? GgmlTypeId::q6_k : GgmlTypeId::q4_k,
             more ? q6_k(hidden * kv) : q4_k(hidden * kv));
    w.tensor(b + "attn_output.weight", {hidden, hidden}, GgmlTypeId::q4_k, q4_k(hidden * hidden));
    w.tensor(b + "ffn_norm.weight", {hidden}, GgmlTypeId::f32, f32(hidden));
    w.tensor(b + "ffn_gate.weight", {hidden, ffn}, GgmlTypeId::q4_k, q4_k(hidden * ffn));
    w.tensor(b + "ffn_up.weight", {hidden, ffn}, GgmlTypeId::q4_k, q4_k(hidden * ffn));
    w.tensor(b + "ffn_down.weight", {ffn, hidden}, more ? GgmlTypeId::q6_k : GgmlTypeId::q4_k,
             more ? q6_k(hidden * ffn) : q4_k(hidden * ffn));
  }
  w.tensor("output_norm.weight", {hidden}, GgmlTypeId::f32, f32(hidden));
  w.tensor("output.weight", {hidden, vocab}, GgmlTypeId::q6_k, q6_k(hidden * vocab));
  return w;
}

std::string scratch_folder(const std::string& name) {
  static const TempDir root;
  const std::filesystem::path dir = std::filesystem::path(root.path()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace gputco::test
