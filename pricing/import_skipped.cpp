// The summary of the rows a SkyPilot or gpuhunt import skips (pricing/catalog_import.hpp
// skipped_summary, ImportIncomplete).
#include <algorithm>
#include <map>
#include <tuple>

#include "pricing/catalog_import.hpp"
#include "pricing/public_catalogs.hpp"
#include "pricing/visible_text.hpp"

namespace gputco {

namespace {

// "6", "6, 9", "10-17, 20": ascending line numbers with runs of three or more shortened; past
// kListedRuns runs, "and N more lines" (a withdrawn currency of the ECB's history file is on
// thousands of lines: the count says how many).
constexpr std::size_t kListedRuns = 20;
std::string line_list(const std::vector<int>& lines) {
  std::string out;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < lines.size();) {
    if (runs == kListedRuns) {
      out += " and " + std::to_string(lines.size() - i) + " more lines";
      break;
    }
    std::size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    if (j >= i + 2) {
      out += std::to_string(lines[i]) + "-" + std::to_string(lines[j]);
      i = j + 1;
    } else {
      out += std::to_string(lines[i]);
      ++i;
    }
    ++runs;
  }
  return out;
}

}  // namespace

std::vector<std::string> skipped_summary(const ImportReport& report, const std::string& file) {
  using Key = std::tuple<std::string, std::string, std::string>;  // column, value, reason
  std::vector<Key> order;
  std::map<Key, std::vector<int>> lines;
  std::vector<SkippedRow> rows = report.skipped_rows;
  std::stable_sort(rows.begin(), rows.end(),
                   [](const SkippedRow& a, const SkippedRow& b) { return a.line < b.line; });
  for (const SkippedRow& r : rows) {
    const Key key{r.column, r.value, r.reason};
    auto& at = lines[key];
    if (at.empty()) order.push_back(key);
    at.push_back(r.line);
  }
  std::vector<std::string> out;
  for (const Key& key : order) {
    const auto& [column, value, reason] = key;
    const std::vector<int>& at = lines[key];
    out.push_back(
        file + ":" + line_list(at) + ": " + column + ": " +
        (value.empty() ? std::string() : import_detail::in_quotes(visible_text(value)) + ": ") +
        reason + " (" + std::to_string(at.size()) + (at.size() == 1 ? " row)" : " rows)"));
  }
  return out;
}

ImportIncomplete::ImportIncomplete(std::vector<std::string> summary, int skipped)
    : CatalogError([&] {
        std::string text;
        for (const auto& line : summary) text += line + "\n";
        text += std::to_string(skipped) + (skipped == 1 ? " row" : " rows") +
                " cannot be imported; nothing imported (--allow-skipped "
                "imports the other rows)";
        return text;
      }()),
      summary_(std::move(summary)),
      skipped_(skipped) {}

}  // namespace gputco
