#include "tests/support/paths.hpp"

namespace gputco::test {

std::string source_path(const std::string& relative) {
  return std::string(GPUTCO_SOURCE_DIR) + "/" + relative;
}

std::string binary_path(const std::string& relative) {
  return std::string(GPUTCO_BINARY_DIR) + "/" + relative;
}

}  // namespace gputco::test
