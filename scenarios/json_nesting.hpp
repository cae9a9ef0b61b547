#pragma once
// JSON read from a user's model files (a Hugging Face config.json, a [model] section's
// JSON values) with its nesting bounded.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

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

/// `text` parsed as JSON (nlohmann's parser, with a callback that sees each value's depth).
/// Throws JsonTooDeep "nested deeper than 64 levels of { and [" before a deeper value is
/// built, and nlohmann::json::parse_error for text that is not JSON.
inline nlohmann::json parse_json_bounded(const std::string& text) {
  return nlohmann::json::parse(
      text, [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if ((event == nlohmann::json::parse_event_t::object_start ||
             event == nlohmann::json::parse_event_t::array_start) &&
            depth >= kMaxModelJsonNesting) {
          throw JsonTooDeep("nested deeper than " + std::to_string(kMaxModelJsonNesting) +
                            " levels of { and [");
        }
        return true;
      });
}

}  // namespace gputco
