// The engine's one exception type.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace gputco {

/// Thrown by engine functions when a precondition on their inputs fails (a negative
/// price, a zero bandwidth, a horizon of zero months). The message names the input and
/// the value received. The CLI maps it to exit code 2 (bad input).
class EngineError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace gputco

/// States a precondition: `GPUTCO_REQUIRE(rate > -1, "discount rate must be above -100%, got " << rate)`.
#define GPUTCO_REQUIRE(condition, message)          \
  do {                                              \
    if (!(condition)) {                             \
      std::ostringstream gputco_require_stream_;    \
      gputco_require_stream_ << message;            \
      throw ::gputco::EngineError(gputco_require_stream_.str()); \
    }                                               \
  } while (false)
