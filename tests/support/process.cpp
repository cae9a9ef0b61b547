#include "tests/support/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

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

std::vector<std::string> directory_entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

pid_t start_until_marker(const std::string& program, const std::vector<std::string>& args,
                         const Environment& environment, const std::string& marker) {
  const pid_t child = fork();
  if (child == 0) {
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(marker) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!std::filesystem::exists(marker)) {
    ADD_FAILURE() << program << " never reached its test hook (no " << marker << ")";
  }
  return child;
}

int wait_status(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
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
              const std::string& working_dir, const Environment& environment,
              const std::string& stdin_path, const std::string& stdout_path) {
  TempDir capture;
  // Built by appending only: GCC 12 at -O2 warns falsely (-Wrestrict, GCC PR 105329) about
  // `"literal" + std::string`, which inserts the literal in front of the string.
  std::string command;
  if (!working_dir.empty()) command.append("cd ").append(quote(working_dir)).append(" && ");
  // No test may see the developer's own price books or defaults: unless a test names its
  // own, XDG_DATA_HOME and XDG_CONFIG_HOME point at empty directories that only live for
  // this run.
  command.append("LC_ALL=C TZ=UTC XDG_DATA_HOME=").append(quote(capture.file("xdg")));
  command.append(" XDG_CONFIG_HOME=").append(quote(capture.file("config"))).append(" ");
  for (const auto& [name, value] : environment) {
    command.append(name).append("=").append(quote(value)).append(" ");
  }
  command.append(quote(program));
  for (const auto& arg : args) command.append(" ").append(quote(arg));
  command.append(" >").append(quote(stdout_path.empty() ? capture.file("out") : stdout_path));
  command.append(" 2>").append(quote(capture.file("err")));
  command.append(" <").append(stdin_path.empty() ? "/dev/null" : quote(stdin_path));
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(capture.file("out"));
  result.err = read_file(capture.file("err"));
  return result;
}

}  // namespace gputco::test
