#include "scenarios/quote.hpp"

#include <cctype>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gputco {
namespace {

/// A logo larger than this is not a logo (and would bloat every workbook).
constexpr std::uintmax_t kMaxLogoBytes = 10u * 1024 * 1024;

unsigned big_endian(const std::string& bytes, size_t at, size_t length) {
  unsigned value = 0;
  for (size_t i = 0; i < length; ++i)
    value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

}  // namespace

std::optional<std::pair<int, int>> image_size(const std::string& bytes) {
  // PNG: the signature, then the IHDR chunk: width and height, 4 bytes each, big-endian.
  static const std::string kPng = "\x89PNG\r\n\x1a\n";
  if (bytes.size() >= 24 && bytes.compare(0, kPng.size(), kPng) == 0 &&
      bytes.compare(12, 4, "IHDR") == 0) {
    const unsigned width = big_endian(bytes, 16, 4), height = big_endian(bytes, 20, 4);
    if (width == 0 || height == 0 || width > 1u << 20 || height > 1u << 20) return std::nullopt;
    return std::make_pair(static_cast<int>(width), static_cast<int>(height));
  }
  // JPEG: SOI, then segments (marker, big-endian length) up to a start of frame (SOF0-15 but
  // DHT C4, JPG C8, DAC CC): precision, height, width.
  if (bytes.size() < 4 || static_cast<unsigned char>(bytes[0]) != 0xFF ||
      static_cast<unsigned char>(bytes[1]) != 0xD8) {
    return std::nullopt;
  }
  size_t at = 2;
  while (at + 4 <= bytes.size()) {
    if (static_cast<unsigned char>(bytes[at]) != 0xFF) return std::nullopt;
    const auto marker = static_cast<unsigned char>(bytes[at + 1]);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    const unsigned length = big_endian(bytes, at + 2, 2);
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
      if (at + 9 > bytes.size()) return std::nullopt;
      const unsigned height = big_endian(bytes, at + 5, 2), width = big_endian(bytes, at + 7, 2);
      if (width == 0 || height == 0) return std::nullopt;
      return std::make_pair(static_cast<int>(width), static_cast<int>(height));
    }
    if (length < 2) return std::nullopt;
    at += 2 + length;
  }
  return std::nullopt;
}

void resolve_quote(const Scenario& s, ResolvedScenario& r) {
  const auto fail = [&](const std::string& section, const std::string& key,
                        const std::string& problem) {
    const auto [file, line] = s.location_of(section, key);
    throw ScenarioError(file, line, "[" + section + "] " + key, problem);
  };
  r.seller.company = s.seller_company;
  r.seller.contact = s.seller_contact;
  r.seller.terms = s.seller_terms;
  if (!s.seller_logo.empty()) {
    namespace fs = std::filesystem;
    const fs::path given(s.seller_logo);
    const fs::path path = given.is_absolute() ? given : fs::path(s.file).parent_path() / given;
    std::error_code error;
    const auto status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      fail("seller", "logo",
           "no such file: " + path.string() + " (a path relative to the scenario file)");
    }
    if (!fs::is_regular_file(status)) fail("seller", "logo", "not a file: " + path.string());
    if (fs::file_size(path, error) > kMaxLogoBytes) {
      fail("seller", "logo", "larger than 10 MiB: " + path.string() + "; use a smaller image");
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) fail("seller", "logo", "cannot read: " + path.string());
    const auto size = image_size(bytes.str());
    if (!size) {
      fail("seller", "logo", "not a PNG or JPEG image: " + path.string());
    }
    r.seller.logo_path = path.string();
    r.seller.logo_width_px = size->first;
    r.seller.logo_height_px = size->second;
  }

  std::vector<std::string> ids;
  for (const ScenarioOption& o : s.options) ids.push_back(o.id);
  if (!s.proposed.empty() && std::find(ids.begin(), ids.end(), s.proposed) == ids.end()) {
    std::string list;
    for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
    fail("scenario", "proposed",
         "unknown option '" + s.proposed + "'" + did_you_mean(s.proposed, ids) +
             " (the options: " + list + ")");
  }
  r.proposed_option_id = s.proposed;

  // A name a person reads must say which option it is: no two the same, none another's id,
  // also where they differ only in case or spacing ("Rig" and "rig ", which a reader takes
  // for one option: two "Recommendation:" lines seemed to name the same one).
  const auto as_read = [](const std::string& name) {
    std::string out;
    for (const char c : name) {
      const auto u = static_cast<unsigned char>(c);
      if (std::isspace(u)) {
        if (!out.empty() && out.back() != ' ') out += ' ';
      } else {
        out += static_cast<char>(std::tolower(u));
      }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  };
  for (const ScenarioOption& o : s.options) {
    if (o.label.empty()) continue;
    for (const ScenarioOption& other : s.options) {
      if (other.id == o.id) continue;
      const std::string& other_name = other.label.empty() ? other.id : other.label;
      if (as_read(other_name) == as_read(o.label)) {
        fail("option:" + o.id, "label",
             "'" + o.label + "' is also the name of option:" + other.id +
                 "; give each option its own label");
      }
    }
    r.option_labels[o.id] = o.label;
  }

  if (s.given.count("scenario.paper")) {
    r.paper = s.paper;
    r.paper_reason = "scenario key paper";
  } else {
    r.paper = s.currency == "USD" ? "letter" : "a4";
    r.paper_reason = "the default for " + s.currency;
  }
}

}  // namespace gputco
