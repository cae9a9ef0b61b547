// The README's and docs/'s command examples print what the binary prints: every ```text block
// that starts with "$ build/cli/gputco ..." is run (in an empty directory, so the workbook name is
// the one the README shows) and compared line by line. A "..." line in a block stands for
// lines the README leaves out: the lines before it must open the output, the lines after it
// must follow somewhere after them, in order and contiguous.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

struct Example {
  std::string file;                ///< README.md or docs/NAME.md
  int line = 0;                    ///< of the "$ build/cli/gputco" line in the file
  std::vector<std::string> args;   ///< after "gputco"; repository paths made absolute
  std::vector<std::string> shown;  ///< the block's lines after the command
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<Example> examples_in(const std::string& file) {
  std::ifstream in(test::source_path(file));
  std::stringstream content;
  content << in.rdbuf();
  const auto lines = lines_of(content.str());
  const std::string prompt = "$ build/cli/gputco ";
  std::vector<Example> examples;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i - 1] != "```text" || lines[i].rfind(prompt, 0) != 0) continue;
    Example e;
    e.file = file;
    e.line = static_cast<int>(i + 1);
    std::istringstream words(lines[i].substr(prompt.size()));
    for (std::string word; words >> word;) {
      e.args.push_back(word.rfind("scenarios/", 0) == 0 ? test::source_path(word) : word);
    }
    for (size_t j = i + 1; j < lines.size() && lines[j] != "```"; ++j) e.shown.push_back(lines[j]);
    examples.push_back(e);
  }
  return examples;
}

/// README.md's examples, then every docs/*.md's in name order.
std::vector<Example> documented_examples() {
  std::vector<Example> all = examples_in("README.md");
  std::vector<std::string> docs;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("docs"))) {
    if (entry.path().extension() == ".md") docs.push_back("docs/" + entry.path().filename().string());
  }
  std::sort(docs.begin(), docs.end());
  for (const auto& file : docs) {
    auto more = examples_in(file);
    all.insert(all.end(), more.begin(), more.end());
  }
  return all;
}

TEST(Readme, everyCommandExamplePrintsWhatTheBinaryPrints) {
  const auto examples = documented_examples();
  ASSERT_GE(examples.size(), 3u) << "the documents' worked examples were not found";
  EXPECT_GE(examples_in("README.md").size(), 1u) << "the README's worked example was not found";
  for (const auto& e : examples) {
    test::TempDir dir;
    const auto result = test::run(test::gputco_exe(), e.args, dir.path());
    ASSERT_EQ(result.exit_code, 0) << e.file << ":" << e.line << "\n" << result.err;
    const auto printed = lines_of(result.out);
    size_t at = 0;  // next output line to compare
    bool skipping = false;
    for (const auto& want : e.shown) {
      if (want == "...") {
        skipping = true;
        continue;
      }
      if (skipping) {
        while (at < printed.size() && printed[at] != want) ++at;
        skipping = false;
      }
      ASSERT_LT(at, printed.size())
          << e.file << ":" << e.line << ": the binary printed no line\n  " << want << "\n"
          << result.out;
      EXPECT_EQ(printed[at], want)
          << e.file << ":" << e.line << ", block line " << (&want - e.shown.data()) + 1;
      ++at;
    }
  }
}

}  // namespace
}  // namespace gputco
