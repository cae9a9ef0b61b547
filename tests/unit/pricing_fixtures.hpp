// Helpers for the pricing tests: catalogs built from tests/data/catalog fixtures.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_import.hpp"
#include "tests/support/paths.hpp"

namespace gputco::test {

/// A fresh, empty directory of the build tree for one test.
inline std::filesystem::path work_dir(const std::string& name) {
  const std::filesystem::path dir = binary_path("tests/pricing_work/" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// A data directory made of tests/data/catalog/good with the files of `overlay` (a folder
/// of tests/data/catalog, or "" for none) copied over it.
inline std::filesystem::path fixture_data(const std::string& name, const std::string& overlay) {
  namespace fs = std::filesystem;
  const fs::path dir = work_dir(name) / "data";
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(source_path("tests/data/catalog/good"))) {
    fs::copy_file(entry.path(), dir / entry.path().filename());
  }
  if (!overlay.empty()) {
    for (const auto& entry : fs::directory_iterator(source_path("tests/data/catalog/" + overlay))) {
      fs::copy_file(entry.path(), dir / entry.path().filename(),
                    fs::copy_options::overwrite_existing);
    }
  }
  return dir;
}

/// The problems check_catalog_data reports for `dir`, with "DIR/" removed from each.
inline std::vector<std::string> problems_in(const std::filesystem::path& dir) {
  std::vector<std::string> problems = check_catalog_data(dir.string());
  const std::string prefix = dir.string() + "/";
  for (std::string& p : problems) {
    for (auto pos = p.find(prefix); pos != std::string::npos; pos = p.find(prefix)) {
      p.erase(pos, prefix.size());
    }
  }
  return problems;
}

/// Builds the good fixture catalog and returns the path of the .sqlite file.
inline std::string good_catalog_file(const std::string& name) {
  const std::filesystem::path data = fixture_data(name, "");
  const std::string db = (data.parent_path() / "catalog.sqlite").string();
  build_catalog(data.string(), db);
  return db;
}

/// The problems an import of `file` into `db` reports ("FILE:LINE: column: problem"), with the
/// file's folder removed; empty when it succeeds.
inline std::vector<std::string> import_problems(const std::string& db, const std::string& file,
                                                const ImportOptions& options) {
  try {
    import_price_book(db, file, options);
    return {};
  } catch (const ImportError& e) {
    std::vector<std::string> out = e.problems();
    const std::string prefix = std::filesystem::path(file).parent_path().string() + "/";
    for (auto& p : out) {
      if (p.rfind(prefix, 0) == 0) p.erase(0, prefix.size());
    }
    return out;
  }
}

}  // namespace gputco::test
