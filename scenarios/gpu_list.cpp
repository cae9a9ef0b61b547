#include "scenarios/gpu_list.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace gputco {

namespace {

constexpr int kMaxCards = 4096;

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == ',') {
      parts.push_back(trimmed(current));
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(trimmed(current));
  return parts;
}

bool valid_id(const std::string& id) {
  if (id.empty()) return false;
  for (char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '-' || c == '_' || c == '.')) return false;
  }
  return true;
}

}  // namespace

std::vector<GpuListEntry> parse_gpu_list(const std::string& text) {
  if (trimmed(text).empty()) {
    throw std::invalid_argument("empty: expected N x ID, ..., e.g. 2 x tesla-m40, 1 x t4");
  }
  std::vector<GpuListEntry> out;
  int cards = 0;
  for (const std::string& part : split_commas(text)) {
    const std::string expected =
        "'" + part + "': expected N x ID (a count and a device id), e.g. 2 x tesla-m40";
    if (part.empty()) throw std::invalid_argument("an empty entry: expected N x ID between commas");
    std::size_t digits = 0;
    while (digits < part.size() && std::isdigit(static_cast<unsigned char>(part[digits]))) ++digits;
    GpuListEntry e;
    std::string rest = part;
    if (digits > 0) {
      const std::string after = trimmed(part.substr(digits));
      if (after.empty() || (after[0] != 'x' && after[0] != 'X' && after[0] != '*')) {
        throw std::invalid_argument(expected);
      }
      int n = 0;
      const auto [ptr, ec] = std::from_chars(part.data(), part.data() + digits, n);
      if (ec != std::errc() || n < 1 || n > kMaxCards) {
        throw std::invalid_argument("'" + part + "': the count must be from 1 to 4096");
      }
      e.count = n;
      rest = trimmed(after.substr(1));
    }
    if (!valid_id(rest)) throw std::invalid_argument(expected);
    e.id = rest;
    cards += e.count;
    if (cards > kMaxCards) throw std::invalid_argument("more than 4096 cards in one box");
    out.push_back(e);
  }
  return out;
}

std::vector<double> parse_tensor_split(const std::string& text) {
  std::vector<double> out;
  for (const std::string& part : split_commas(text)) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() ||
        !std::isfinite(v) || v < 0) {
      throw std::invalid_argument("'" + part +
                                  "': expected a non-negative number per GPU, e.g. 3,3,1");
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace gputco
