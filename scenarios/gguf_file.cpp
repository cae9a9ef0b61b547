#include "scenarios/gguf_file.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "pricing/input_file.hpp"
#include "scenarios/model_file_error.hpp"

namespace gputco {

namespace {

// GGUF value types (ggml/include/gguf.h enum gguf_type).
enum GgufType : std::uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// Bytes of a scalar of `type`; 0 for strings and arrays, -1 for an unknown type.
int scalar_bytes(std::uint32_t type) {
  switch (type) {
    case kUint8:
    case kInt8:
    case kBool:
      return 1;
    case kUint16:
    case kInt16:
      return 2;
    case kUint32:
    case kInt32:
    case kFloat32:
      return 4;
    case kUint64:
    case kInt64:
    case kFloat64:
      return 8;
    case kString:
    case kArray:
      return 0;
    default:
      return -1;
  }
}

constexpr std::uint64_t kMaxKeptString = 1 << 20;    // longer values are skipped
constexpr std::uint64_t kMaxKeptArray = 1 << 16;     // numbers of a longer array are skipped
constexpr std::uint64_t kKeptBudget = 64ull << 20;   // bytes of values kept, all together
constexpr std::uint64_t kMaxKeyBytes = 65535;        // longer keys are refused
constexpr std::uint64_t kMaxTensorNameBytes = 4096;  // ggml's GGML_MAX_NAME is 64
constexpr std::uint32_t kMaxDims = 4;                // GGML_MAX_DIMS
constexpr std::uint64_t kDefaultAlignment = 32;      // GGUF_DEFAULT_ALIGNMENT
constexpr std::uint64_t kMaxTensors = 1000000;       // DeepSeek V3 has 1,025; a cap, not a limit
constexpr std::uint64_t kMaxKeys = 100000;           // real files hold a few dozen

// ggml types by id; name "" for ids that do not exist (removed, or never used).
struct TypeRow {
  std::uint32_t id;
  GgmlType type;
};
constexpr std::array<TypeRow, 34> kGgmlTypes{{
    {0, {"F32", 1, 4}},         {1, {"F16", 1, 2}},         {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},      {6, {"Q5_0", 32, 22}},      {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},      {9, {"Q8_1", 32, 36}},      {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}},   {12, {"Q4_K", 256, 144}},   {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}},   {15, {"Q8_K", 256, 292}},   {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}},  {18, {"IQ3_XXS", 256, 98}}, {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}},   {21, {"IQ3_S", 256, 110}},  {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}}, {24, {"I8", 1, 1}},         {25, {"I16", 1, 2}},
    {26, {"I32", 1, 4}},        {27, {"I64", 1, 8}},        {28, {"F64", 1, 8}},
    {29, {"IQ1_M", 256, 56}},   {30, {"BF16", 1, 2}},       {34, {"TQ1_0", 256, 54}},
    {35, {"TQ2_0", 256, 66}},   {39, {"MXFP4", 32, 17}},    {40, {"NVFP4", 64, 36}},
    {0xffffffff, {"", 1, 0}},
}};

// llama.cpp's file types (include/llama.h enum llama_ftype) by number.
constexpr std::array<std::pair<std::uint32_t, const char*>, 35> kFileTypes{{
    {0, "F32"},      {1, "F16"},      {2, "Q4_0"},    {3, "Q4_1"},    {7, "Q8_0"},
    {8, "Q5_0"},     {9, "Q5_1"},     {10, "Q2_K"},   {11, "Q3_K_S"}, {12, "Q3_K_M"},
    {13, "Q3_K_L"},  {14, "Q4_K_S"},  {15, "Q4_K_M"}, {16, "Q5_K_S"}, {17, "Q5_K_M"},
    {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"}, {21, "Q2_K_S"}, {22, "IQ3_XS"},
    {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"}, {26, "IQ3_S"},  {27, "IQ3_M"},
    {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"}, {31, "IQ1_M"},  {32, "BF16"},
    {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4"},  {39, "NVFP4"},  {0xffffffff, ""},
}};

std::string byte_text(std::uint64_t offset) {
  return fmt::format("byte {}", offset);
}

// Reads the header sequentially, knowing the offset and how many bytes the file has left.
class Reader {
 public:
  Reader(std::string path, std::ifstream& in, std::uint64_t size)
      : path_(std::move(path)), in_(in), size_(size) {}

  std::uint64_t offset() const { return offset_; }
  std::uint64_t left() const { return size_ - offset_; }

  [[noreturn]] void fail(std::uint64_t at, const std::string& problem) const {
    throw ModelFileError(path_, byte_text(at) + ": " + problem);
  }

  void need(std::uint64_t bytes, const std::string& what) const {
    if (bytes > left()) {
      fail(offset_, fmt::format("truncated: expected {} byte(s) of {}, the file ends at byte {}",
                                bytes, what, size_));
    }
  }

  void read(void* out, std::uint64_t bytes, const std::string& what) {
    need(bytes, what);
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(bytes));
    if (!in_) fail(offset_, "cannot read " + what);
    offset_ += bytes;
  }

  void skip(std::uint64_t bytes, const std::string& what) {
    need(bytes, what);
    // Short skips (a vocabulary's strings) read through the buffer; long ones seek.
    if (bytes <= scratch_.size()) {
      in_.read(scratch_.data(), static_cast<std::streamsize>(bytes));
    } else {
      in_.seekg(static_cast<std::streamoff>(bytes), std::ios::cur);
    }
    if (!in_) fail(offset_, "cannot read " + what);
    offset_ += bytes;
  }

  /// Takes `bytes` from the budget of values kept in memory; false when it is spent.
  bool keep(std::uint64_t bytes) {
    if (bytes > kept_left_) return false;
    kept_left_ -= bytes;
    return true;
  }

  template <typename T>
  T scalar(const std::string& what) {
    std::array<unsigned char, sizeof(T)> bytes{};
    read(bytes.data(), sizeof(T), what);
    // Little-endian, whatever the host.
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      bits |= static_cast<std::uint64_t>(bytes[i]) << (8 * i);
    }
    T value;
    if constexpr (sizeof(T) == 1) {
      const auto b = static_cast<std::uint8_t>(bits);
      std::memcpy(&value, &b, 1);
    } else if constexpr (sizeof(T) == 2) {
      const auto b = static_cast<std::uint16_t>(bits);
      std::memcpy(&value, &b, 2);
    } else if constexpr (sizeof(T) == 4) {
      const auto b = static_cast<std::uint32_t>(bits);
      std::memcpy(&value, &b, 4);
    } else {
      std::memcpy(&value, &bits, 8);
    }
    return value;
  }

  // A string: its length checked against the bytes left before anything is allocated;
  // kept when at most `keep` bytes, else skipped (nullopt).
  std::optional<std::string> string(const std::string& what, std::uint64_t keep) {
    const std::uint64_t at = offset_;
    const auto length = scalar<std::uint64_t>("the length of " + what);
    if (length > left()) {
      fail(at, fmt::format("{}: length {} exceeds the {} byte(s) left in the file", what, length,
                           left()));
    }
    if (length > keep || !this->keep(length)) {
      skip(length, what);
      return std::nullopt;
    }
    std::string text(static_cast<std::size_t>(length), '\0');
    read(text.data(), length, what);
    return text;
  }

 private:
  std::string path_;
  std::ifstream& in_;
  std::uint64_t size_;
  std::uint64_t offset_ = 0;
  std::uint64_t kept_left_ = kKeptBudget;
  std::array<char, 4096> scratch_{};
};

double read_number(Reader& r, std::uint32_t type, const std::string& what) {
  switch (type) {
    case kUint8:
      return r.scalar<std::uint8_t>(what);
    case kInt8:
      return r.scalar<std::int8_t>(what);
    case kBool:
      return r.scalar<std::uint8_t>(what) != 0 ? 1 : 0;
    case kUint16:
      return r.scalar<std::uint16_t>(what);
    case kInt16:
      return r.scalar<std::int16_t>(what);
    case kUint32:
      return r.scalar<std::uint32_t>(what);
    case kInt32:
      return r.scalar<std::int32_t>(what);
    case kFloat32:
      return r.scalar<float>(what);
    case kUint64:
      return static_cast<double>(r.scalar<std::uint64_t>(what));
    case kInt64:
      return static_cast<double>(r.scalar<std::int64_t>(what));
    case kFloat64:
      return r.scalar<double>(what);
    default:
      return 0;
  }
}

GgufValue read_value(Reader& r, const std::string& key, std::uint32_t type, std::uint64_t at) {
  GgufValue v;
  const std::string what = "the value of '" + key + "'";
  if (type == kString) {
    v.kind = GgufValue::Kind::string;
    v.text = r.string(what, kMaxKeptString).value_or("");
    return v;
  }
  if (type != kArray) {
    if (scalar_bytes(type) < 0) r.fail(at, fmt::format("'{}': unknown value type {}", key, type));
    v.number = read_number(r, type, what);
    return v;
  }
  v.kind = GgufValue::Kind::array;
  const std::uint64_t array_at = r.offset();
  v.element_type = r.scalar<std::uint32_t>("the element type of '" + key + "'");
  v.count = r.scalar<std::uint64_t>("the length of '" + key + "'");
  const int element_bytes = scalar_bytes(v.element_type);
  if (element_bytes < 0 || v.element_type == kArray) {
    r.fail(array_at, fmt::format("'{}': arrays of type {} are not GGUF", key, v.element_type));
  }
  // Each element takes at least its own size (a string at least its 8-byte length).
  const std::uint64_t least =
      v.element_type == kString ? 8 : static_cast<std::uint64_t>(element_bytes);
  if (v.count > r.left() / least) {
    r.fail(array_at, fmt::format("'{}': {} elements cannot fit in the {} byte(s) left in the file",
                                 key, v.count, r.left()));
  }
  if (v.element_type == kString) {
    for (std::uint64_t i = 0; i < v.count; ++i) r.string(what, 0);
  } else if (v.count > kMaxKeptArray || !r.keep(v.count * sizeof(double))) {
    r.skip(v.count * least, what);
  } else {
    v.numbers.reserve(static_cast<std::size_t>(v.count));
    for (std::uint64_t i = 0; i < v.count; ++i) {
      v.numbers.push_back(read_number(r, v.element_type, what));
    }
  }
  return v;
}

GgufTensor read_tensor(Reader& r, std::uint64_t index) {
  GgufTensor t;
  const std::uint64_t at = r.offset();
  const std::string which = fmt::format("tensor {}", index);
  auto name = r.string("the name of " + which, kMaxTensorNameBytes);
  if (!name) r.fail(at, which + ": a name longer than " + std::to_string(kMaxTensorNameBytes));
  t.name = *name;
  const std::string what = "tensor '" + t.name + "'";
  const std::uint64_t dims_at = r.offset();
  const auto n_dims = r.scalar<std::uint32_t>("the dimension count of " + what);
  if (n_dims == 0 || n_dims > kMaxDims) {
    r.fail(dims_at, fmt::format("{}: {} dimensions, expected 1 to {}", what, n_dims, kMaxDims));
  }
  t.elements = 1;
  for (std::uint32_t d = 0; d < n_dims; ++d) {
    const auto dim = r.scalar<std::uint64_t>("the dimensions of " + what);
    // ggml counts elements in int64_t: refuse a product that would overflow it.
    if (dim == 0 || dim > static_cast<std::uint64_t>(INT64_MAX) / t.elements) {
      r.fail(dims_at, fmt::format("{}: dimension {} is {}, out of range", what, d, dim));
    }
    t.dims.push_back(dim);
    t.elements *= dim;
  }
  const std::uint64_t type_at = r.offset();
  t.type = r.scalar<std::uint32_t>("the type of " + what);
  const auto type = ggml_type_info(t.type);
  if (!type) {
    r.fail(type_at,
           fmt::format("{}: unknown ggml type {} (a newer llama.cpp format?)", what, t.type));
  }
  if (t.dims[0] % type->block_size != 0) {
    r.fail(dims_at, fmt::format("{}: {} values per row is not a whole number of {} blocks of {}",
                                what, t.dims[0], type->name, type->block_size));
  }
  t.bytes = t.elements / type->block_size * type->block_bytes;
  t.offset = r.scalar<std::uint64_t>("the data offset of " + what);
  return t;
}

}  // namespace

const GgufValue* GgufFile::find(const std::string& key) const {
  const auto it = metadata.find(key);
  return it == metadata.end() ? nullptr : &it->second;
}

std::optional<GgmlType> ggml_type_info(std::uint32_t id) {
  for (const auto& row : kGgmlTypes) {
    if (row.id == id && row.type.block_bytes > 0) return row.type;
  }
  return std::nullopt;
}

std::string llama_file_type_name(std::uint32_t file_type) {
  for (const auto& [id, name] : kFileTypes) {
    if (id == file_type) return name;
  }
  return "";
}

bool has_gguf_magic(const std::string& path) {
  try {
    regular_file_size(path, "GGUF file");  // never open a FIFO to wait for a writer
  } catch (const InputFileError&) {
    return false;  // read_gguf_header or the config reader says why
  }
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  return in.read(magic.data(), magic.size()) && std::memcmp(magic.data(), "GGUF", 4) == 0;
}

GgufFile read_gguf_header(const std::string& path) {
  std::uint64_t size = 0;
  try {
    size = regular_file_size(path, "GGUF file");
  } catch (const InputFileError& e) {
    throw ModelFileError(path, e.what());  // a FIFO, a device, a directory: refused at once
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelFileError(path, "cannot open the file");
  Reader r(path, in, size);
  GgufFile file;
  file.path = path;
  file.file_bytes = size;

  std::array<char, 4> magic{};
  if (size < magic.size()) {
    r.fail(0, fmt::format("not a GGUF file: {} byte(s), too short for the 'GGUF' magic", size));
  }
  r.read(magic.data(), magic.size(), "the magic");
  if (std::memcmp(magic.data(), "GGUF", 4) != 0) {
    std::string shown;
    for (const char c : magic) {
      const auto u = static_cast<unsigned char>(c);
      shown += u >= 0x20 && u < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", u);
    }
    r.fail(0, "not a GGUF file: it starts with '" + shown + "', expected 'GGUF'");
  }
  file.version = r.scalar<std::uint32_t>("the version");
  if (file.version == 0x02000000 || file.version == 0x03000000) {
    r.fail(4, "a big-endian GGUF file; only little-endian files are read (as llama.cpp does)");
  }
  if (file.version == 1) r.fail(4, "GGUF version 1 is not supported (llama.cpp reads 2 and 3)");
  if (file.version != 2 && file.version != 3) {
    r.fail(4, fmt::format("GGUF version {} is not known (2 and 3 are)", file.version));
  }
  const std::uint64_t counts_at = r.offset();
  const auto tensor_count = r.scalar<std::uint64_t>("the tensor count");
  const auto kv_count = r.scalar<std::uint64_t>("the metadata count");
  // The smallest pair is a 1-byte key (8 + 1) and a type (4) with a 1-byte value; the
  // smallest tensor entry a 1-byte name (8 + 1), n_dims (4), 1 dimension (8), type (4),
  // offset (8). Counts beyond what the file can hold are refused before any allocation.
  if (kv_count > r.left() / 14 || tensor_count > r.left() / 33 ||
      kv_count * 14 + tensor_count * 33 > r.left()) {
    r.fail(counts_at, fmt::format("{} tensors and {} metadata entries cannot fit in the {} "
                                  "byte(s) of the file",
                                  tensor_count, kv_count, size));
  }
  if (tensor_count > kMaxTensors || kv_count > kMaxKeys) {
    r.fail(counts_at, fmt::format("{} tensors and {} metadata entries: more than the {} and {} "
                                  "this program reads",
                                  tensor_count, kv_count, kMaxTensors, kMaxKeys));
  }

  for (std::uint64_t i = 0; i < kv_count; ++i) {
    const std::uint64_t at = r.offset();
    auto key = r.string(fmt::format("metadata key {}", i), kMaxKeyBytes);
    if (!key) r.fail(at, fmt::format("metadata key {}: longer than {} bytes", i, kMaxKeyBytes));
    const std::uint64_t type_at = r.offset();
    const auto type = r.scalar<std::uint32_t>("the type of '" + *key + "'");
    GgufValue value = read_value(r, *key, type, type_at);
    if (!file.metadata.emplace(*key, std::move(value)).second) {
      r.fail(at, "metadata key '" + *key + "' appears twice");
    }
  }
  std::set<std::string> names;
  for (std::uint64_t i = 0; i < tensor_count; ++i) {
    const std::uint64_t at = r.offset();
    GgufTensor t = read_tensor(r, i);
    if (!names.insert(t.name).second) r.fail(at, "tensor '" + t.name + "' appears twice");
    file.tensors.push_back(std::move(t));
  }
  file.header_bytes = r.offset();

  // Where the data starts, and that every tensor lies inside the file.
  std::uint64_t alignment = kDefaultAlignment;
  if (const GgufValue* a = file.find("general.alignment");
      a && a->kind == GgufValue::Kind::number) {
    // A uint32 power of two (ggml's gguf.cpp); checked as a double first: a NaN or 1e30
    // converted to an integer is undefined.
    if (!(a->number >= 1 && a->number <= 4294967295.0) || std::floor(a->number) != a->number) {
      throw ModelFileError(
          path, fmt::format("general.alignment: expected a power of two, got {}", a->number));
    }
    alignment = static_cast<std::uint64_t>(a->number);
    if ((alignment & (alignment - 1)) != 0) {
      throw ModelFileError(path,
                           fmt::format("general.alignment: {} is not a power of two", alignment));
    }
  }
  const std::uint64_t data_start = (file.header_bytes + alignment - 1) / alignment * alignment;
  for (const GgufTensor& t : file.tensors) {
    if (data_start > size || t.offset > size - data_start ||
        t.bytes > size - data_start - t.offset) {
      throw ModelFileError(
          path, fmt::format("{}: truncated: the data of tensor '{}' ({} bytes at data offset {}) "
                            "does not fit in the file's {} bytes (an incomplete download?)",
                            byte_text(size), t.name, t.bytes, t.offset, size));
    }
  }
  return file;
}

}  // namespace gputco
