#include "engine/hardware/compute_capability.hpp"

#include <array>
#include <string_view>

namespace gputco {

namespace {

struct Row {
  std::string_view id;  // a catalog id, or a prefix ending in '-' or '*'
  int capability;
};

// Catalog ids (pricing/data/devices.csv) to compute capability, per NVIDIA's table. A prefix
// ends in '*'; the first match wins, so the longer prefixes come first.
constexpr std::array<Row, 36> kRows{{
    {"tesla-m40", 52},    {"tesla-p40", 61},    {"p100", 60},
    {"v100-*", 70},       {"t4", 75},           {"rtx-2080*", 75},
    {"rtx-2070*", 75},    {"rtx-2060*", 75},    {"titan-rtx", 75},
    {"quadro-rtx-*", 75}, {"a100-*", 80},       {"a30", 80},
    {"a10", 86},          {"a10g", 86},         {"a40", 86},
    {"a16", 86},          {"rtx-a*", 86},       {"rtx-30*", 86},
    {"rtx-4000-ada", 89}, {"rtx-5000-ada", 89}, {"rtx-6000-ada", 89},
    {"rtx-40*", 89},      {"l4", 89},           {"l40", 89},
    {"l40s", 89},         {"l20", 89},          {"h100-*", 90},
    {"h200-*", 90},       {"gh200*", 90},       {"b200*", 100},
    {"b300*", 103},       {"gb200*", 100},      {"jetson-agx-thor", 110},
    {"dgx-spark", 121},   {"rtx-pro-*", 120},   {"rtx-50*", 120},
}};

bool matches(std::string_view id, std::string_view pattern) {
  if (!pattern.empty() && pattern.back() == '*') {
    pattern.remove_suffix(1);
    return id.substr(0, pattern.size()) == pattern;
  }
  return id == pattern;
}

}  // namespace

std::optional<int> nvidia_compute_capability(const Device& device) {
  if (device.vendor != Vendor::nvidia) return std::nullopt;
  for (const Row& row : kRows) {
    if (matches(device.id, row.id)) return row.capability;
  }
  return std::nullopt;
}

std::string nvidia_architecture(int capability) {
  if (capability < 60) return "Maxwell";
  if (capability < 70) return "Pascal";
  if (capability < 75) return "Volta";
  if (capability < 80) return "Turing";
  if (capability < 89) return "Ampere";
  if (capability < 90) return "Ada Lovelace";
  if (capability < 100) return "Hopper";
  return "Blackwell";
}

}  // namespace gputco
