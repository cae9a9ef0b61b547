// Issue #18: what `cmake --install` puts on a machine, and the manual pages and shell
// completions kept honest against the program's own --help.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

/// Every command's --help, as the man page and the completions must cover it.
const std::vector<std::vector<std::string>> kCommands = {{"plan"},
                                                         {"fit"},
                                                         {"throughput"},
                                                         {"sweep"},
                                                         {"risk"},
                                                         {"diff"},
                                                         {"calibrate"},
                                                         {"catalog", "list"},
                                                         {"catalog", "show"},
                                                         {"catalog", "import"},
                                                         {"catalog", "export"},
                                                         {"catalog", "check"}};

/// The long options ("--name") a --help text names.
std::set<std::string> long_options(const std::string& help) {
  std::set<std::string> out;
  const std::regex option(R"(--[a-z][a-z0-9-]*)");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), option);
       it != std::sregex_iterator(); ++it) {
    out.insert(it->str());
  }
  return out;
}

/// A troff source as the reader sees the words: font changes dropped, "\-" as "-".
std::string man_words(const std::string& path) {
  std::string text = test::read_file(path);
  text = std::regex_replace(text, std::regex(R"(\\f[BIRP])"), "");
  return std::regex_replace(text, std::regex(R"(\\-)"), "-");
}

bool installed(const char* program) {
  return std::system(("command -v " + std::string(program) + " >/dev/null 2>&1").c_str()) == 0;
}

std::string help_of(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--help");
  const auto r = test::run(test::gputco_exe(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(ManualPage, namesEveryCommandAndOptionOfHelp) {
  const std::string page = man_words(test::source_path("cli/man/gputco.1"));
  const auto top = test::run(test::gputco_exe(), {"--help"});
  for (const char* command :
       {"plan", "fit", "throughput", "sweep", "risk", "diff", "calibrate", "catalog list",
        "catalog show", "catalog import", "catalog export", "catalog check"}) {
    ASSERT_NE(top.out.find(command), std::string::npos) << command;
    EXPECT_NE(page.find(".SS \"gputco " + std::string(command)), std::string::npos) << command;
  }
  for (const auto& command : kCommands) {
    for (const auto& option : long_options(help_of(command))) {
      EXPECT_NE(page.find(option), std::string::npos)
          << command.back() << " " << option << " is not in cli/man/gputco.1";
    }
  }
}

TEST(ShellCompletion, everyOptionOfHelpIsCompleted) {
  const std::string bash = test::read_file(test::source_path("cli/completions/gputco.bash"));
  const std::string zsh = test::read_file(test::source_path("cli/completions/_gputco"));
  const std::string fish = test::read_file(test::source_path("cli/completions/gputco.fish"));
  for (const auto& command : kCommands) {
    for (const auto& option : long_options(help_of(command))) {
      EXPECT_TRUE(std::regex_search(bash, std::regex(option + R"((\s|"|\)|\|))")))
          << command.back() << " " << option << " (bash)";
      EXPECT_TRUE(std::regex_search(zsh, std::regex(option + R"((\[|\}'\[))")))
          << command.back() << " " << option << " (zsh)";
      EXPECT_TRUE(std::regex_search(fish, std::regex("-l " + option.substr(2) + R"(\b)")))
          << command.back() << " " << option << " (fish)";
    }
  }
}

TEST(ShellCompletion, scriptsParse) {
  // What each shell can check without running the script.
  EXPECT_EQ(
      std::system(("bash -n '" + test::source_path("cli/completions/gputco.bash") + "'").c_str()),
      0);
  if (!installed("zsh") || !installed("fish")) {
    GTEST_SKIP() << "zsh or fish is not installed: only the bash script was parsed";
  }
  EXPECT_EQ(std::system(("zsh -n '" + test::source_path("cli/completions/_gputco") + "'").c_str()),
            0);
  EXPECT_EQ(
      std::system(
          ("fish --no-execute '" + test::source_path("cli/completions/gputco.fish") + "'").c_str()),
      0);
}

TEST(ManualPage, rendersWithoutWarnings) {
  if (!installed("groff")) GTEST_SKIP() << "groff is not installed (man-db pulls it in)";
  for (const char* page : {"cli/man/gputco.1", "cli/man/gputco-scenario.5"}) {
    test::TempDir dir;
    const std::string command = "groff -man -Tutf8 -ww -z '" + test::source_path(page) + "' 2>'" +
                                dir.file("warnings") + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << page;
    EXPECT_EQ(test::read_file(dir.file("warnings")), "") << page;
  }
}

TEST(Install, layoutAndAProgramThatNeedsNoDataFiles) {
  // cmake --install into a scratch prefix, then run the installed program from elsewhere:
  // the catalog is compiled in, so nothing of the source or build tree is needed.
  test::TempDir prefix;
  const std::string install = std::string("'") + test::cmake_command() + "' --install '" +
                              test::binary_path(".") + "' --prefix '" + prefix.path() +
                              "' >/dev/null";
  ASSERT_EQ(std::system(install.c_str()), 0) << install;
  for (const char* file :
       {"bin/gputco", "share/man/man1/gputco.1.gz", "share/man/man5/gputco-scenario.5.gz",
        "share/bash-completion/completions/gputco", "share/zsh/vendor-completions/_gputco",
        "share/fish/vendor_completions.d/gputco.fish", "share/doc/gputco/README.md",
        "share/doc/gputco/docs/scenario-reference.md", "share/doc/gputco/docs/money-model.md",
        "share/doc/gputco/LICENSE", "share/doc/gputco/LICENSE.catalog-data",
        "share/doc/gputco/examples/used-3090-rig-vs-rented-h100.ini"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(prefix.file(file))) << file;
  }
  // Nothing but the program, its pages, completions and documents.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(prefix.path())) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string().substr(prefix.path().size() + 1);
    EXPECT_TRUE(path == "bin/gputco" || path.rfind("share/man/", 0) == 0 ||
                path.rfind("share/doc/gputco/", 0) == 0 ||
                path.rfind("share/bash-completion/", 0) == 0 || path.rfind("share/zsh/", 0) == 0 ||
                path.rfind("share/fish/", 0) == 0)
        << path;
  }
  test::TempDir work;
  const auto plan =
      test::run(prefix.file("bin/gputco"),
                {"plan", prefix.file("share/doc/gputco/examples/used-3090-rig-vs-rented-h100.ini")},
                work.path());
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("Recommendation: rig-3090"), std::string::npos) << plan.out;
  EXPECT_TRUE(std::filesystem::is_regular_file(work.file("used-3090-rig-vs-rented-h100.xlsx")));
}

}  // namespace
}  // namespace gputco
