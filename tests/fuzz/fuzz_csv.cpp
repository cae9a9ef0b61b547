// libFuzzer harness: a catalog CSV file through the reader (parse_csv) and the validator
// (check_catalog_data), and, when the data is good, through build_catalog.
//
// The input replaces one table of a copy of tests/data/catalog/good in a private temporary
// directory: the table whose header in the good set shares the longest prefix with the
// input's first bytes, so the seed corpus (real catalog CSVs) lands on the right table.
// Only CatalogError (and its CatalogBuildError) may be thrown; anything else escapes and is
// reported by libFuzzer as a crash.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "pricing/catalog.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/csv_table.hpp"

#ifndef GPUTCO_SOURCE_DIR
#error "GPUTCO_SOURCE_DIR must name the source tree"
#endif

namespace {

namespace fs = std::filesystem;

struct Table {
  std::string file;
  std::string good;  // the good file's content
};

struct Fixture {
  fs::path dir;
  std::vector<Table> tables;

  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "gputco-fuzz-csv-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
    const fs::path good = fs::path(GPUTCO_SOURCE_DIR) / "tests/data/catalog/good";
    for (const auto& entry : fs::directory_iterator(good)) {
      std::ifstream in(entry.path(), std::ios::binary);
      Table t{entry.path().filename().string(),
              std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())};
      tables.push_back(t);
    }
    std::sort(tables.begin(), tables.end(),
              [](const Table& a, const Table& b) { return a.file < b.file; });
    for (const Table& t : tables) put(t.file, t.good);
  }
  ~Fixture() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }

  void put(const std::string& file, std::string_view content) const {
    std::ofstream out(dir / file, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) std::abort();
  }

  const Table& table_for(std::string_view text) const {
    const Table* best = &tables.front();
    std::size_t best_length = 0;
    for (const Table& t : tables) {
      std::size_t n = 0;
      while (n < text.size() && n < t.good.size() && text[n] == t.good[n]) ++n;
      if (n > best_length) {
        best = &t;
        best_length = n;
      }
    }
    return *best;
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const gputco::CsvTable table = gputco::parse_csv(text, "fuzz.csv");
    for (const auto& row : table.rows) {
      if (row.line < table.header_line) std::abort();  // records come in file order
    }
  } catch (const gputco::CatalogError&) {
  }

  const Fixture& f = fixture();
  const Table& target = f.table_for(text);
  f.put(target.file, text);
  try {
    const auto problems = gputco::check_catalog_data(f.dir.string());
    if (problems.empty()) gputco::build_catalog(f.dir.string(), (f.dir / "out.sqlite").string());
  } catch (const gputco::CatalogError&) {
  }
  f.put(target.file, target.good);
  std::error_code ignored;
  fs::remove(f.dir / "out.sqlite", ignored);
  return 0;
}
