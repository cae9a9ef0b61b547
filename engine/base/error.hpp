// The engine's one exception type.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace gputco {

/// Thrown by engine functions when a precondition on their inputs fails (a negative
/// price, a zero bandwidth, a horizon of zero months). The message names the input and
/// the value received. The CLI maps it to exit code 2 (bad input).
class EngineError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
  /// A refusal of one scenario input: `section` and `key` as the file writes them
  /// ("workload", "tpot_ms"), so the CLI can point at the key's file and line.
  EngineError(const std::string& message, std::string section, std::string key)
      : std::invalid_argument(message), section_(std::move(section)), key_(std::move(key)) {}
  /// The scenario section of the refused input, "" when the refusal names none.
  const std::string& section() const { return section_; }
  /// The scenario key of the refused input, "" when the refusal names none.
  const std::string& key() const { return key_; }

 private:
  std::string section_;
  std::string key_;
};

}  // namespace gputco

/// States a precondition: `GPUTCO_REQUIRE(rate > -1, "discount rate must be above -100%, got " <<
/// rate)`.
#define GPUTCO_REQUIRE(condition, message)                       \
  do {                                                           \
    if (!(condition)) {                                          \
      std::ostringstream gputco_require_stream_;                 \
      gputco_require_stream_ << message;                         \
      throw ::gputco::EngineError(gputco_require_stream_.str()); \
    }                                                            \
  } while (false)
