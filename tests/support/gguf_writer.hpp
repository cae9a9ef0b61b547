// Writes small GGUF files for tests: the header, the metadata and the tensor table, then a
// sparse hole as long as the tensor data (nothing of it is written), so that a "70 GB" model
// takes a few kilobytes on disk. Layout as ggml/docs/gguf.md: little-endian, version 3,
// alignment 32.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputco::test {

/// ggml tensor types used by the tests, with their ids (ggml/include/ggml.h).
enum class GgmlTypeId : std::uint32_t {
  f32 = 0,
  f16 = 1,
  q4_0 = 2,
  q8_0 = 8,
  q4_k = 12,
  q5_k = 13,
  q6_k = 14,
  bf16 = 30,
  mxfp4 = 39,
};

/// Builds a GGUF file in memory.
class GgufWriter {
 public:
  GgufWriter& u32(const std::string& key, std::uint32_t value);
  GgufWriter& i32(const std::string& key, std::int32_t value);
  GgufWriter& u64(const std::string& key, std::uint64_t value);
  GgufWriter& f32(const std::string& key, float value);
  GgufWriter& boolean(const std::string& key, bool value);
  GgufWriter& str(const std::string& key, const std::string& value);
  GgufWriter& i32_array(const std::string& key, const std::vector<std::int32_t>& values);
  GgufWriter& str_array(const std::string& key, const std::vector<std::string>& values);
  /// A tensor of `dims` (ne[0] first) and `type`, whose data takes `data_bytes` (computed by
  /// the test by hand: elements / block size x block bytes).
  GgufWriter& tensor(const std::string& name, const std::vector<std::uint64_t>& dims,
                     GgmlTypeId type, std::uint64_t data_bytes);
  /// Raw bytes appended to the metadata (for malformed files); counted as `entries` entries.
  GgufWriter& raw_metadata(const std::string& bytes, std::uint64_t entries);
  GgufWriter& version(std::uint32_t v);

  /// The header and table bytes.
  std::string header() const;
  /// Where the tensor data would end: the file's full size.
  std::uint64_t file_size() const;
  /// Writes the file: the header, then a sparse hole up to file_size() (or up to `size` when
  /// given, to cut it short). Throws std::runtime_error when it cannot write.
  void write(const std::string& path, std::uint64_t size = 0) const;

 private:
  std::uint32_t version_ = 3;
  std::string metadata_;
  std::uint64_t metadata_count_ = 0;
  std::string tensors_;
  std::uint64_t tensor_count_ = 0;
  std::uint64_t data_bytes_ = 0;
};

/// Bytes of ggml tensors of `n` values, by hand from the block layouts (ggml-common.h):
/// Q4_K 144 bytes per 256 values, Q6_K 210 per 256, Q8_0 34 per 32, MXFP4 17 per 32, F32 4.
constexpr std::uint64_t q4_k(std::uint64_t n) {
  return n / 256 * 144;
}
constexpr std::uint64_t q6_k(std::uint64_t n) {
  return n / 256 * 210;
}
constexpr std::uint64_t q8_0(std::uint64_t n) {
  return n / 32 * 34;
}
constexpr std::uint64_t mxfp4(std::uint64_t n) {
  return n / 32 * 17;
}
constexpr std::uint64_t f32(std::uint64_t n) {
  return n * 4;
}

/// Llama 3.1 8B as llama-quantize writes Q4_K_M (Meta-Llama-3.1-8B config.json: 32 layers,
/// hidden 4096, 32 heads, 8 KV heads, FFN 14336, vocabulary 128256; llama.cpp's tensor names
/// and its Q4_K_M mix: attn_v and ffn_down in Q6_K on the use_more_bits layers, the output in
/// Q6_K, the rest Q4_K, norms F32): 4,912,898,304 bytes of tensors.
GgufWriter llama31_8b_q4_k_m();

/// A fresh, empty folder named `name` for one test's files, inside a temporary directory
/// removed when the test program ends (a test::TempDir).
std::string scratch_folder(const std::string& name);

}  // namespace gputco::test
