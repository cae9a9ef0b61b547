#pragma once
// JSON read from a user's model files (a Hugging Face config.json, a [model] section's
// JSON values) with its nesting bounded and every key of an object unique.
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputco {

/// Deepest nesting of { and [ accepted in a model's config.json or a [model] JSON value: 64
/// levels, as for a JSON scenario (scenario_text.hpp). A Hugging Face config has three or four
/// (text_config.rope_scaling...). nlohmann's parser itself copes with any depth, but copying
/// or walking the parsed value recurses once per level: 100,000 levels overflowed the stack
/// (a crash, exit 139).
inline constexpr int kMaxModelJsonNesting = 64;

/// Thrown by parse_json_bounded for text nested deeper than kMaxModelJsonNesting.
class JsonTooDeep : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by parse_json_bounded for an object that names a key twice. RFC 8259 (section 4)
/// leaves such an object's meaning to the reader: nlohmann keeps the last value, Python's
/// json (which writes config.json files) the last too, other readers the first; a
/// config.json with "num_hidden_layers" twice was planned with whichever came last, silently.
class JsonDuplicateKey : public std::runtime_error {
 public:
  /// `key`: the key's path from the top ("rope_scaling.factor").
  explicit JsonDuplicateKey(const std::string& key)
      : std::runtime_error(key +
                           ": given twice in one object (JSON keys must be unique: "
                           "which value would count?)"),
        key_(key) {}
  const std::string& key() const noexcept { return key_; }

 private:
  std::string key_;
};

/// nlohmann's message of `e` without its "[json.exception.out_of_range.406] " prefix:
/// "number overflow parsing '1e400'".
inline std::string json_problem(const nlohmann::json::exception& e) {
  const std::string what = e.what();
  const auto end = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? what.substr(end + 2)
                                                                            : what;
}

/// `text` parsed as JSON (nlohmann's parser, with a callback that sees each value's depth
/// and each object's keys). Throws JsonTooDeep "nested deeper than 64 levels of { and ["
/// before a deeper value is built, JsonDuplicateKey for a key given twice in one object,
/// nlohmann::json::parse_error for text that is not JSON and nlohmann::json::out_of_range for
/// a number beyond a double (1e400).
inline nlohmann::json parse_json_bounded(const std::string& text) {
  using event_t = nlohmann::json::parse_event_t;
  // Per open object: the keys seen and the key being read (for the path in messages); an
  // array is an entry with no keys.
  struct Level {
    std::set<std::string> keys;
    std::string current;
  };
  std::vector<Level> open;
  const auto path = [&](const std::string& last) {
    std::string out;
    for (const Level& level : open) {
      if (&level == &open.back()) break;
      if (!level.current.empty()) out += level.current + ".";
    }
    return out + last;
  };
  return nlohmann::json::parse(text, [&](int depth, event_t event, nlohmann::json& parsed) {
    switch (event) {
      case event_t::object_start:
      case event_t::array_start:
        if (depth >= kMaxModelJsonNesting) {
          throw JsonTooDeep("nested deeper than " + std::to_string(kMaxModelJsonNesting) +
                            " levels of { and [");
        }
        open.emplace_back();
        break;
      case event_t::object_end:
      case event_t::array_end:
        if (!open.empty()) open.pop_back();
        break;
      case event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!open.back().keys.insert(key).second) throw JsonDuplicateKey(path(key));
        open.back().current = key;
        break;
      }
      case event_t::value:
        break;
    }
    return true;
  });
}

}  // namespace gputco
