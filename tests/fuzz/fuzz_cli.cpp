// libFuzzer harness: arbitrary argument vectors through the argument parsing of
// `gputco fit` and `gputco catalog list` (the subcommand functions, as main calls them).
//
// The input is split at NUL bytes into arguments; its first byte picks the command (even:
// fit, odd: catalog list). Only the exceptions main maps to exit codes are caught
// (UsageError, program_options errors, ScenarioError, EngineError, CatalogError); anything
// else escapes and is reported as a crash, as is a return code other than 0 or 2.
//
// Nothing may be written: the harness runs in an empty private directory (also HOME and
// XDG_DATA_HOME, where user price books live), drops every
// argument holding a '/' (so --catalog can only name a file of that empty directory), always
// passes "list" as the catalog action, and aborts if a file appears in the directory.
#include <dirent.h>
#include <unistd.h>

#include <boost/program_options/errors.hpp>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "engine/base/error.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/scenario.hpp"

namespace {

namespace fs = std::filesystem;

bool directory_is_empty(const char* path) {
  DIR* dir = ::opendir(path);
  if (dir == nullptr) std::abort();
  bool empty = true;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") empty = false;
  }
  ::closedir(dir);
  return empty;
}

std::string sandbox;

/// A number printed as "inf" or "nan" (fmt, iostreams) in output that holds no user text.
bool prints_a_non_finite_number(const std::string& text) {
  std::string token;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    const bool separator = c == ' ' || c == '\n' || c == '\t' || c == ',' || c == ':' || c == '[' ||
                           c == ']' || c == '{' || c == '}' || c == '"' || c == '|';
    if (!separator) {
      token += c;
      continue;
    }
    if (!token.empty() && (token[0] == '-' || token[0] == '+')) token.erase(0, 1);
    for (char& t : token) t = static_cast<char>(std::tolower(static_cast<unsigned char>(t)));
    if (token == "inf" || token == "nan" || token == "infinity") return true;
    token.clear();
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string pattern = (fs::temp_directory_path() / "gputco-fuzz-cli-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) std::abort();
  sandbox = pattern;
  if (::chdir(sandbox.c_str()) != 0) std::abort();
  // User price books and settings are looked up there too: anything written shows.
  ::setenv("XDG_DATA_HOME", sandbox.c_str(), 1);
  ::setenv("HOME", sandbox.c_str(), 1);
  std::atexit([] {
    std::error_code ignored;
    fs::remove_all(sandbox, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool fit = (data[0] & 1) == 0;
  std::vector<std::string> args;
  if (!fit) args.push_back("list");
  std::string current;
  bool has_slash = false;
  for (size_t i = 1; i <= size; ++i) {
    if (i == size || data[i] == '\0') {
      if (!has_slash) args.push_back(current);
      current.clear();
      has_slash = false;
      continue;
    }
    const char c = static_cast<char>(data[i]);
    has_slash = has_slash || c == '/';
    current += c;
  }

  std::ostringstream out, err;
  int code = 0;
  try {
    code = fit ? gputco::cli::fit_command(args, out, err)
               : gputco::cli::catalog_command(args, out, err);
  } catch (const gputco::cli::UsageError&) {
    code = 2;
  } catch (const boost::program_options::error&) {
    code = 2;
  } catch (const gputco::ScenarioError&) {
    code = 2;
  } catch (const gputco::EngineError&) {
    code = 2;
  } catch (const gputco::CatalogError&) {
    code = 1;
  }
  if (code != 0 && code != 2 && code != 1) {
    std::fprintf(stderr, "unexpected exit code %d\n", code);
    std::abort();
  }
  if (prints_a_non_finite_number(out.str())) {
    std::fprintf(stderr, "non-finite number printed:\n%s\n", out.str().c_str());
    std::abort();
  }
  if (!directory_is_empty(".")) {
    std::fprintf(stderr, "the command wrote a file in %s\n", sandbox.c_str());
    std::abort();
  }
  return 0;
}
