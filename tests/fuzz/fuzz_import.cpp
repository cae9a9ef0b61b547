// libFuzzer harness: a price file through `catalog import` (import_price_book) into a fresh
// user database in a private temporary directory, removed after each input. Our formats and
// the SkyPilot and gpuhunt CSVs are told apart by their header, so the seeds (real files)
// reach each reader. Only ImportError (bad file) and CatalogError (database) may be thrown;
// anything else escapes and libFuzzer reports it as a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "pricing/catalog.hpp"
#include "pricing/catalog_import.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& sandbox() {
  static const fs::path dir = [] {
    std::string pattern = (fs::temp_directory_path() / "gputco-fuzz-import-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    return fs::path(pattern);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path csv = sandbox() / "lambda.csv";
  const fs::path db = sandbox() / "books" / "prices.sqlite";
  {
    std::ofstream out(csv, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();
  }
  gputco::ImportOptions options;
  options.book = "fuzz";
  options.as_of = "2030-12-31";
  options.observed_on = "2026-01-01";
  try {
    gputco::import_price_book(db.string(), csv.string(), options);
  } catch (const gputco::CatalogError&) {  // ImportError included
  }
  std::error_code ignored;
  fs::remove_all(sandbox() / "books", ignored);
  return 0;
}
