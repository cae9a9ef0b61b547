#include "pricing/accelerator_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
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

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// Words a catalog writes before the product name: vendors and brands.
constexpr std::array<std::string_view, 8> kVendorWords = {"NVIDIA",   "TESLA",  "GEFORCE", "AMD",
                                                          "INSTINCT", "RADEON", "INTEL",   "APPLE"};

// Trailing words that say the form or generation of a card, not which card: "H100 SXM5 80GB"
// is known as "H100 SXM5", and, when no other device shares it, as "H100".
bool is_form_word(const std::string& word) {
  static const std::set<std::string, std::less<>> words = {"SXM",  "SXM2", "SXM4",     "SXM5",
                                                           "SXM6", "PCIE", "BLACKWELL"};
  return words.count(word) > 0;
}

// "16GB", "94GB": a memory size.
bool is_memory_word(const std::string& word) {
  if (word.size() < 3 || word.compare(word.size() - 2, 2, "GB") != 0) return false;
  return std::all_of(word.begin(), word.end() - 2,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

// The words of an id or a name, upper case: split at spaces, '-', '_' and '/'.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ' || c == '-' || c == '_' || c == '/') {
      if (!word.empty()) words.push_back(upper_alnum(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(upper_alnum(word));
  words.erase(std::remove(words.begin(), words.end(), std::string()), words.end());
  return words;
}

// Every key one spelling (an id or a name) derives: the whole, then with trailing memory and
// form words taken off one at a time; a parenthetical part of a name is left out.
std::set<std::string> derived_keys(std::string_view text) {
  std::set<std::string> keys;
  const std::string whole = accelerator_key(text);
  if (!whole.empty()) keys.insert(whole);
  const std::string_view base = text.substr(0, text.find('('));
  std::vector<std::string> words = words_of(base);
  auto key_of = [](const std::vector<std::string>& w) {
    std::string joined;
    for (const auto& part : w) joined += part;
    return accelerator_key(joined);
  };
  while (!words.empty()) {
    const std::string key = key_of(words);
    if (!key.empty()) keys.insert(key);
    if (words.size() < 2 || !(is_memory_word(words.back()) || is_form_word(words.back()))) break;
    words.pop_back();
  }
  return keys;
}

// Cloud names no device name spells, each mapped only when the catalog has the device.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kOddNames = {{
    {"A6000", "rtx-a6000"},  // Lambda, Paperspace: the RTX A6000
    {"A5000", "rtx-a5000"},  // Paperspace, Fluidstack
    {"A4000", "rtx-a4000"},  // Paperspace, Fluidstack
    {"RTXPRO6000", "rtx-pro-6000-blackwell"},
    {"H100MEGA", "h100-sxm"},  // GCP a3-megagpu: H100 SXM with more networking
    {"H100MEGA80GB", "h100-sxm"},
    {"H200141GB", "h200-sxm"},
    {"A100SXM480GB", "a100-80gb-sxm"},
    {"A100PCIE80GB", "a100-80gb-pcie"},
    {"V10032GB", "v100-sxm2-32gb"},  // SkyPilot's AWS p3dn.24xlarge
}};

}  // namespace

std::string accelerator_key(std::string_view name) {
  std::string out = upper_alnum(name);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view word : kVendorWords) {
      if (out.rfind(word, 0) == 0 && out.size() > word.size()) {
        out.erase(0, word.size());
        changed = true;
      }
    }
  }
  return out;
}

AcceleratorNames::AcceleratorNames(const std::vector<DeviceNaming>& devices) {
  std::map<std::string, std::set<std::string>> owners;  // key -> device ids deriving it
  for (const DeviceNaming& d : devices) {
    ids_.emplace(d.id, d.id);
    for (std::string_view spelling : {std::string_view(d.id), std::string_view(d.name)}) {
      for (const std::string& key : derived_keys(spelling)) owners[key].insert(d.id);
    }
  }
  for (const auto& [key, ids] : owners) {
    if (ids.size() == 1) keys_.emplace(key, *ids.begin());
  }
  for (const auto& [key, id] : kOddNames) {
    if (has(id)) keys_.emplace(std::string(key), std::string(id));
  }
}

std::optional<AcceleratorMatch> AcceleratorNames::map(std::string_view name, std::string_view sku,
                                                      std::string_view provider,
                                                      double memory_gb) const {
  const std::string key = accelerator_key(name);
  if (key.empty()) return std::nullopt;
  const std::string sku_key = upper_alnum(sku);
  const bool runpod = upper_alnum(provider) == "RUNPOD";
  const std::string quoted = "'" + std::string(name) + "'";
  const auto found = [&](std::string_view id, std::string rule) -> std::optional<AcceleratorMatch> {
    if (!has(id)) return std::nullopt;
    return AcceleratorMatch{std::string(id), std::move(rule)};
  };
  // Form factor of a name that does not say it: the sku, then the provider's habit.
  auto form = [&](std::string_view pcie, std::string_view sxm) {
    if (contains(sku_key, "PCIE")) {
      return found(pcie, "plain " + quoted + ": 'pcie' in the instance type");
    }
    if (contains(sku_key, "SXM"))
      return found(sxm, "plain " + quoted + ": 'sxm' in the instance type");
    if (contains(sku_key, "HBM3")) {  // gpuhunt's RunPod "NVIDIA H100 80GB HBM3": the SXM card
      return found(sxm, "plain " + quoted + ": 'HBM3' in the instance type");
    }
    if (runpod) return found(pcie, "plain " + quoted + " at RunPod is the PCIe card");
    return found(sxm, "plain " + quoted + " taken as the SXM (HGX) card");
  };
  if (key == "H100" || key == "H10080GB") {
    if (contains(sku_key, "NVL")) return found("h100-nvl", "'NVL' in the instance type");
    return form("h100-pcie", "h100-sxm");
  }
  if (key == "H200" && contains(sku_key, "NVL")) {
    return found("h200-nvl", "'NVL' in the instance type");
  }
  if (key == "A10080GB") return form("a100-80gb-pcie", "a100-80gb-sxm");
  if (key == "A100") {
    if (memory_gb >= 70) return form("a100-80gb-pcie", "a100-80gb-sxm");
    return found("a100-40gb-sxm", "plain 'A100' without 80 GB taken as the 40 GB SXM4");
  }
  if (key == "V100") {
    const bool big = memory_gb >= 30;
    if (contains(sku_key, "PCIE")) {
      return found(big ? "v100-pcie-32gb" : "v100-pcie-16gb",
                   "plain 'V100': 'pcie' in the instance type");
    }
    return found(big ? "v100-sxm2-32gb" : "v100-sxm2-16gb",
                 std::string("plain 'V100' taken as the SXM2 card (AWS p3, GCP)") +
                     (big ? ", 32 GB" : ", 16 GB unless 32 GB is stated"));
  }
  if (key == "B200" && memory_gb >= 170 && memory_gb < 190) {
    return found("b200-180gb", "'B200' with 180 GB: the HGX/DGX B200 part");
  }
  if (key == "RTX3080") {
    return memory_gb >= 11 ? found("rtx-3080-12gb", "'RTX 3080' with 12 GB")
                           : found("rtx-3080-10gb", "plain 'RTX 3080' taken as the 10 GB card");
  }
  if (key == "RTX4060TI" || key == "RTX5060TI") {
    if (memory_gb < 16) return std::nullopt;  // the catalog has the 16 GB cards only
    return found(key == "RTX4060TI" ? "rtx-4060-ti-16gb" : "rtx-5060-ti-16gb", "");
  }
  if (key == "B200") return found("b200", "");
  if (const auto it = keys_.find(key); it != keys_.end()) {
    return AcceleratorMatch{it->second, ""};
  }
  return std::nullopt;
}

}  // namespace gputco
