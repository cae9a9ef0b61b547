#include "pricing/accelerator_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace gputco {

namespace {

std::string upper_alnum(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += static_cast<char>(std::toupper(u));
  }
  return out;
}

// The name without vendor words, upper case, letters and digits only.
std::string normalize(std::string_view name) {
  std::string out = upper_alnum(name);
  for (std::string_view word : {"NVIDIA", "TESLA", "GEFORCE", "AMD", "INSTINCT", "RADEON"}) {
    if (out.rfind(word, 0) == 0 && out.size() > word.size()) out.erase(0, word.size());
  }
  return out;
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// Names with one meaning.
constexpr std::array<std::pair<std::string_view, std::string_view>, 40> kUnambiguous = {{
    {"H100SXM", "h100-sxm"},
    {"H100SXM5", "h100-sxm"},
    {"H100SXM580GB", "h100-sxm"},
    {"H100MEGA", "h100-sxm"},
    {"H100MEGA80GB", "h100-sxm"},
    {"H100PCIE", "h100-pcie"},
    {"H100PCIE80GB", "h100-pcie"},
    {"H200", "h200-sxm"},
    {"H200SXM", "h200-sxm"},
    {"H200141GB", "h200-sxm"},
    {"B200", "b200"},
    {"A10080GBSXM", "a100-80gb-sxm"},
    {"A100SXM480GB", "a100-80gb-sxm"},
    {"A10080GBPCIE", "a100-80gb-pcie"},
    {"A100PCIE80GB", "a100-80gb-pcie"},
    {"A100SXM440GB", "a100-40gb-sxm"},
    {"A10040GB", "a100-40gb-sxm"},
    {"L4", "l4"},
    {"L40S", "l40s"},
    {"T4", "t4"},
    {"P100", "p100"},
    {"MI300X", "mi300x"},
    {"A6000", "rtx-a6000"},
    {"RTXA6000", "rtx-a6000"},
    {"RTX6000ADA", "rtx-6000-ada"},
    {"RTX5000ADA", "rtx-5000-ada"},
    {"RTX4000ADA", "rtx-4000-ada"},
    {"RTXPRO6000", "rtx-pro-6000-blackwell"},
    {"RTXPRO6000BLACKWELL", "rtx-pro-6000-blackwell"},
    {"RTX3060", "rtx-3060-12gb"},
    {"RTX3070", "rtx-3070"},
    {"RTX3080", "rtx-3080-10gb"},
    {"RTX3080TI", "rtx-3080-ti"},
    {"RTX3090", "rtx-3090"},
    {"RTX4070TI", "rtx-4070-ti"},
    {"RTX4080", "rtx-4080"},
    {"RTX4090", "rtx-4090"},
    {"RTX5070TI", "rtx-5070-ti"},
    {"RTX5080", "rtx-5080"},
    {"RTX5090", "rtx-5090"},
}};

}  // namespace

std::optional<AcceleratorMatch> map_accelerator(std::string_view name, std::string_view sku,
                                                std::string_view provider, double memory_gb) {
  const std::string key = normalize(name);
  if (key.empty()) return std::nullopt;
  const std::string sku_key = upper_alnum(sku);
  const bool runpod = upper_alnum(provider) == "RUNPOD";
  // Form factor of a name that does not say it: the sku, then the provider's habit.
  auto form = [&](std::string_view pcie, std::string_view sxm) -> AcceleratorMatch {
    const std::string quoted = "'" + std::string(name) + "'";
    if (contains(sku_key, "PCIE")) {
      return {std::string(pcie), "plain " + quoted + ": 'pcie' in the instance type"};
    }
    if (contains(sku_key, "SXM")) {
      return {std::string(sxm), "plain " + quoted + ": 'sxm' in the instance type"};
    }
    if (contains(sku_key, "HBM3")) {  // gpuhunt's RunPod "NVIDIA H100 80GB HBM3": the SXM card
      return {std::string(sxm), "plain " + quoted + ": 'HBM3' in the instance type"};
    }
    if (runpod) return {std::string(pcie), "plain " + quoted + " at RunPod is the PCIe card"};
    return {std::string(sxm), "plain " + quoted + " taken as the SXM (HGX) card"};
  };
  if (key == "H100" || key == "H10080GB") return form("h100-pcie", "h100-sxm");
  if (key == "A10080GB") return form("a100-80gb-pcie", "a100-80gb-sxm");
  if (key == "A100") {
    if (memory_gb >= 70) return form("a100-80gb-pcie", "a100-80gb-sxm");
    return AcceleratorMatch{"a100-40gb-sxm", "plain 'A100' without 80 GB taken as the 40 GB SXM4"};
  }
  if (key == "RTX4060TI" || key == "RTX5060TI") {
    if (memory_gb < 16) return std::nullopt;  // the catalog has the 16 GB cards only
    return AcceleratorMatch{key == "RTX4060TI" ? "rtx-4060-ti-16gb" : "rtx-5060-ti-16gb", ""};
  }
  for (const auto& [alias, device_id] : kUnambiguous) {
    if (alias == key) return AcceleratorMatch{std::string(device_id), ""};
  }
  return std::nullopt;
}

}  // namespace gputco
