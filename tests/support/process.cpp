#include "tests/support/process.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gputco::test {

namespace {

std::string quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path);
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gputco-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::string& working_dir, const Environment& environment) {
  TempDir capture;
  // No test may see the developer's own price books: unless a test names its own,
  // XDG_DATA_HOME points at an empty directory that only lives for this run.
  std::string command = "LC_ALL=C TZ=UTC XDG_DATA_HOME=" + quote(capture.file("xdg")) + " ";
  for (const auto& [name, value] : environment) command += name + "=" + quote(value) + " ";
  if (!working_dir.empty()) command = "cd " + quote(working_dir) + " && " + command;
  command += quote(program);
  for (const auto& arg : args) command += " " + quote(arg);
  command += " >" + quote(capture.file("out")) + " 2>" + quote(capture.file("err")) + " </dev/null";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(capture.file("out"));
  result.err = read_file(capture.file("err"));
  return result;
}

}  // namespace gputco::test
