// GGUF files: the header's metadata and tensor table, read locally; never the tensor data.
//
// Layout (ggml/docs/gguf.md and ggml/src/gguf.cpp of llama.cpp), little-endian: the magic
// "GGUF", a uint32 version (2 or 3; version 1 used 32-bit counts and is refused as llama.cpp
// refuses it), uint64 tensor count, uint64 metadata count; the metadata key/value pairs (a
// string key, a uint32 value type, the value); the tensor table (a string name, uint32 n_dims,
// n_dims uint64 dimensions, uint32 ggml type, uint64 offset into the data); then the tensor
// data, aligned to general.alignment (32 by default). A string is a uint64 length and its
// bytes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gputco {

/// One tensor of the table.
struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> dims;  ///< ne[0] first (the fastest-varying dimension)
  std::uint32_t type = 0;           ///< ggml_type
  std::uint64_t offset = 0;         ///< into the data section
  std::uint64_t elements = 0;       ///< product of dims
  std::uint64_t bytes = 0;          ///< elements / block size x block bytes (ggml_nbytes)
};

/// One metadata value. Numbers (every integer and float type, bools as 0 or 1) are kept as
/// doubles; strings whole up to 1 MiB (longer ones, a chat template, as their length only);
/// arrays of numbers up to 1,048,576 elements (per-layer values), other arrays as their
/// length only.
struct GgufValue {
  enum class Kind { number, string, array };
  Kind kind = Kind::number;
  double number = 0;
  std::string text;
  std::uint32_t element_type = 0;  ///< arrays: GGUF type of the elements
  std::uint64_t count = 0;         ///< arrays: number of elements
  std::vector<double> numbers;     ///< arrays of numbers
};

/// A GGUF header as read.
struct GgufFile {
  std::string path;
  std::uint32_t version = 0;
  std::map<std::string, GgufValue> metadata;
  std::vector<GgufTensor> tensors;
  std::uint64_t file_bytes = 0;    ///< size of the file
  std::uint64_t header_bytes = 0;  ///< where the tensor table ends

  /// The value of `key`, nullptr when absent.
  const GgufValue* find(const std::string& key) const;
};

/// A ggml tensor type: its name, values per block and bytes per block
/// (ggml/src/ggml.c type_traits; ggml/include/ggml.h enum ggml_type).
struct GgmlType {
  const char* name = "";
  std::uint32_t block_size = 1;
  std::uint32_t block_bytes = 0;
};

/// The ggml type `id` (0 F32 ... 39 MXFP4, 40 NVFP4); nullopt for an id this program does
/// not know (a removed one, 4, 5, 31-33, 36-38, or a newer one). Never throws.
std::optional<GgmlType> ggml_type_info(std::uint32_t id);

/// The name llama.cpp gives its file type `general.file_type` (include/llama.h enum
/// llama_ftype: 15 "Q4_K_M", 38 "MXFP4_MOE" is named "MXFP4"); "" for an unknown one.
std::string llama_file_type_name(std::uint32_t file_type);

/// True when the file at `path` starts with the GGUF magic. Never throws.
bool has_gguf_magic(const std::string& path);

/// Reads the header of the GGUF file at `path`: metadata and tensor table, nothing of the
/// tensor data, so a 400 GB file answers in milliseconds. Every count and length is checked
/// against the bytes the file has left before anything is allocated, so a hostile header
/// cannot make it allocate more than the file's size (and at most 1 MiB per string).
/// Checks: the magic, version 2 or 3, little-endian, known value types, no nested arrays,
/// at most 4 dimensions, known ggml types, rows that are whole blocks, no tensor named twice,
/// every tensor's data inside the file (a download cut short is caught here).
/// Throws ModelFileError naming the file and the byte offset of the problem
/// ("byte 1,234: truncated: ...", "byte 0: not a GGUF file: ...").
GgufFile read_gguf_header(const std::string& path);

}  // namespace gputco
