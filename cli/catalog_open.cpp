#include "cli/catalog_open.hpp"

#include "cli/commands.hpp"

namespace gputco::cli {

Catalog open_catalog(const std::string& path) {
  if (path.empty()) return Catalog::open_builtin();
  try {
    return Catalog::open_file(path);
  } catch (const CatalogError& e) {
    // A catalog file the user named is input: a bad one is bad input (exit 2).
    throw UsageError(std::string("--catalog: ") + e.what());
  }
}

}  // namespace gputco::cli
