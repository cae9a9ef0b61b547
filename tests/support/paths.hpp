// Paths the tests need: the source tree (data files) and the build tree.
#pragma once

#include <string>

namespace gputco::test {

/// Absolute path of a file in the source tree, e.g. source_path("tests/data/reference/x.csv").
std::string source_path(const std::string& relative);
/// Absolute path of a file in the build tree.
std::string binary_path(const std::string& relative);

}  // namespace gputco::test
