// The corpora of malformed input (tests/data/bad, tests/data/adversarial): each file's
// expected exit code and message, listed in an EXPECTED file.
#pragma once

#include <string>
#include <vector>

namespace gputco::test {

/// One line of an EXPECTED file: "FILE<TAB>EXIT CODE<TAB>text the message must contain".
struct ExpectedCase {
  std::string file;
  int exit_code = 2;
  std::string expected;
};

/// The cases of the EXPECTED file at `path` (lines that are empty or start with '#' skipped).
std::vector<ExpectedCase> load_expected_cases(const std::string& path);

/// A test name for `file`: every character that is not a letter or digit becomes '_'.
std::string case_name(const std::string& file);

}  // namespace gputco::test
