// Paths the tests need: the source tree (data files) and the build tree.
#pragma once

#include <string>

namespace gputco::test {

/// Absolute path of a file in the source tree, e.g. source_path("tests/data/reference/x.csv").
std::string source_path(const std::string& relative);
/// Absolute path of a file in the build tree.
std::string binary_path(const std::string& relative);
/// Absolute path of the gputco program built with the tests ("" in a build without it).
std::string gputco_exe();
/// Absolute path of the catalog builder, gputco-catalog-build ("" in a build without it).
std::string catalog_build_exe();
/// The cmake program that configured the build (the install test runs `cmake --install`).
std::string cmake_command();

}  // namespace gputco::test
