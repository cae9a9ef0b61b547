// gputco-catalog-build DATA_DIR OUT.sqlite: builds the catalog database from CSV files.
// Run by CMake at build time for the built-in catalog. Exit codes: 0 built, 1 could not write,
// 2 bad usage or bad data (every problem printed to stderr as FILE:LINE: column: problem).
#include <exception>
#include <iostream>
#include <string>

#include "pricing/catalog_build.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: gputco-catalog-build DATA_DIR OUT.sqlite\n";
    return 2;
  }
  const std::string data_dir = argv[1];
  const std::string out = argv[2];
  try {
    gputco::build_catalog(data_dir, out);
    return 0;
  } catch (const gputco::CatalogBuildError& e) {
    for (const auto& problem : e.problems()) std::cerr << problem << '\n';
    std::cerr << "Error: " << e.problems().size()
              << (e.problems().size() == 1 ? " problem" : " problems") << " in " << data_dir << "; "
              << out << " not written\n";
    return 2;
  } catch (const gputco::CatalogError& e) {
    std::cerr << "Error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << '\n';
    return 1;
  }
}
