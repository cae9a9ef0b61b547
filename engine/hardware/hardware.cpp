#include "engine/hardware/hardware.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <sstream>
#include <utility>

namespace gputco {

namespace {

// One table per enum: the text form is the catalog's and the scenario files' spelling.
constexpr std::array<std::pair<Vendor, const char*>, 4> kVendors{{
    {Vendor::nvidia, "nvidia"},
    {Vendor::amd, "amd"},
    {Vendor::intel, "intel"},
    {Vendor::apple, "apple"},
}};
constexpr std::array<std::pair<DeviceKind, const char*>, 4> kKinds{{
    {DeviceKind::consumer, "consumer"},
    {DeviceKind::workstation, "workstation"},
    {DeviceKind::datacenter, "datacenter"},
    {DeviceKind::unified, "unified"},
}};
constexpr std::array<std::pair<Backend, const char*>, 5> kBackends{{
    {Backend::cuda, "cuda"},
    {Backend::metal, "metal"},
    {Backend::rocm, "rocm"},
    {Backend::vulkan, "vulkan"},
    {Backend::sycl, "sycl"},
}};
constexpr std::array<std::pair<KvCacheType, const char*>, 10> kKvTypes{{
    {KvCacheType::f32, "f32"},
    {KvCacheType::f16, "f16"},
    {KvCacheType::bf16, "bf16"},
    {KvCacheType::q8_0, "q8_0"},
    {KvCacheType::q4_0, "q4_0"},
    {KvCacheType::q4_1, "q4_1"},
    {KvCacheType::iq4_nl, "iq4_nl"},
    {KvCacheType::q5_0, "q5_0"},
    {KvCacheType::q5_1, "q5_1"},
    {KvCacheType::fp8, "fp8"},
}};
constexpr std::array<std::pair<SplitMode, const char*>, 2> kSplits{{
    {SplitMode::layer, "layer"},
    {SplitMode::tensor, "tensor"},
}};

template <typename Enum, std::size_t N>
std::string name_of(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
  for (const auto& [e, text] : table) {
    if (e == value) return text;
  }
  return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, const char*>, N>& table,
                             const std::string& text) {
  for (const auto& [e, name] : table) {
    if (text == name) return e;
  }
  return std::nullopt;
}

}  // namespace

namespace {

struct FigureBound {
  const char* column;
  double max;
  const char* unit;
  const char* beyond;
};
constexpr std::array<FigureBound, 18> kFigureBounds{{
    {"memory_gb", 16384, " GB", "any device"},
    {"bandwidth_gbps", 100000, " GB/s", "any device"},
    {"board_power_w", 20000, " W", "any device"},
    {"fp16_tflops", 100000, " TFLOPS", "any device"},
    {"fp8_tflops", 100000, " TFLOPS", "any device"},
    {"fp4_tflops", 100000, " TFLOPS", "any device"},
    {"nvlink_gbps", 100000, " GB/s", "any link"},
    {"params_b", 100000, "B parameters", "any model"},
    {"active_params_b", 100000, "B parameters", "any model"},
    {"layers", 10000, " layers", "any model"},
    {"hidden", 1000000, "", "any model"},
    {"heads", 100000, " heads", "any model"},
    {"kv_heads", 100000, " heads", "any model"},
    {"head_dim", 100000, "", "any model"},
    {"experts", 100000, " experts", "any model"},
    {"swa_window", 1e9, " tokens", "any model"},
    {"max_context", 1e9, " tokens", "any model"},
    {"vocab_size", 1e8, " tokens", "any model"},
}};

// A figure as written: whole numbers without an exponent.
std::string figure_text(double value) {
  std::ostringstream out;
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e15) {
    out << static_cast<long long>(value);
  } else {
    out << value;
  }
  return out.str();
}

}  // namespace

std::string figure_problem(std::string_view column, double value) {
  for (const FigureBound& b : kFigureBounds) {
    if (column != b.column) continue;
    if (!std::isfinite(value) || value <= 0) {
      return "must be greater than 0, got " + figure_text(value);
    }
    if (value > b.max) {
      return "must be at most " + figure_text(b.max) + b.unit + " (beyond " + b.beyond +
             ": a unit slip?), got " + figure_text(value);
    }
    return "";
  }
  return "";
}

bool same_id(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

Backend default_backend(const Device& device) {
  switch (device.vendor) {
    case Vendor::nvidia:
      return Backend::cuda;
    case Vendor::apple:
      return Backend::metal;
    case Vendor::amd:
      // ROCm does not support most AMD APUs out of the box; llama.cpp users run Vulkan there.
      return device.kind == DeviceKind::unified ? Backend::vulkan : Backend::rocm;
    case Vendor::intel:
      return Backend::sycl;
  }
  return Backend::vulkan;
}

std::string backend_unsupported_reason(Backend backend, const Device& device) {
  const auto needs = [&](const char* hardware) {
    return to_string(backend) + " runs on " + hardware + " devices only; " + device.id + " is " +
           to_string(device.vendor) + " (its default backend is " +
           to_string(default_backend(device)) + ")";
  };
  switch (backend) {
    case Backend::cuda:
      return device.vendor == Vendor::nvidia ? "" : needs("NVIDIA");
    case Backend::metal:
      return device.vendor == Vendor::apple ? "" : needs("Apple");
    case Backend::rocm:
      return device.vendor == Vendor::amd ? "" : needs("AMD");
    case Backend::sycl:
      return device.vendor == Vendor::intel || device.vendor == Vendor::nvidia
                 ? ""
                 : needs("Intel or NVIDIA");
    case Backend::vulkan:
      return "";
  }
  return "";
}

std::string to_string(Vendor v) {
  return name_of(kVendors, v);
}
std::string to_string(DeviceKind k) {
  return name_of(kKinds, k);
}
std::string to_string(Backend b) {
  return name_of(kBackends, b);
}
std::string to_string(KvCacheType t) {
  return name_of(kKvTypes, t);
}
std::string to_string(const KvCacheTypes& t) {
  return t.k == t.v ? to_string(t.k) : to_string(t.k) + "/" + to_string(t.v);
}
std::string kv_cache_type_list() {
  std::string list;
  for (const auto& [type, text] : kKvTypes) list += (list.empty() ? "" : ", ") + std::string(text);
  return list;
}
std::string to_string(SplitMode s) {
  return name_of(kSplits, s);
}

std::optional<Vendor> parse_vendor(const std::string& text) {
  return value_of(kVendors, text);
}
std::optional<DeviceKind> parse_device_kind(const std::string& text) {
  return value_of(kKinds, text);
}
std::optional<Backend> parse_backend(const std::string& text) {
  return value_of(kBackends, text);
}
std::optional<KvCacheType> parse_kv_cache_type(const std::string& text) {
  return value_of(kKvTypes, text);
}
std::optional<SplitMode> parse_split_mode(const std::string& text) {
  return value_of(kSplits, text);
}

}  // namespace gputco
