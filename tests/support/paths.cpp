#include "tests/support/paths.hpp"

namespace gputco::test {

std::string source_path(const std::string& relative) {
  return std::string(GPUTCO_SOURCE_DIR) + "/" + relative;
}

std::string binary_path(const std::string& relative) {
  return std::string(GPUTCO_BINARY_DIR) + "/" + relative;
}

std::string gputco_exe() {
  return GPUTCO_EXE;
}

std::string catalog_build_exe() {
  return GPUTCO_CATALOG_BUILD_EXE;
}

std::string cmake_command() {
  return GPUTCO_CMAKE_COMMAND;
}

}  // namespace gputco::test
