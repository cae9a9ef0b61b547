#include "tests/support/expected_cases.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace gputco::test {

std::vector<ExpectedCase> load_expected_cases(const std::string& path) {
  std::vector<ExpectedCase> cases;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ExpectedCase c;
    std::string code;
    std::getline(fields, c.file, '\t');
    std::getline(fields, code, '\t');
    std::getline(fields, c.expected);
    c.exit_code = std::stoi(code);
    cases.push_back(c);
  }
  return cases;
}

std::string case_name(const std::string& file) {
  std::string name = file;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

}  // namespace gputco::test
