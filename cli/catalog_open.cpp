#include "cli/catalog_open.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/environment.hpp"

namespace gputco::cli {

std::string default_user_catalog_path() {
  return xdg_file("XDG_DATA_HOME", ".local/share", "catalog.sqlite");
}

std::string configured_user_catalog_path() {
  const auto& config = user_config();
  return config.catalog_path.empty() ? default_user_catalog_path() : config.catalog_path;
}

std::string user_catalog_path(const std::string& path) {
  if (!path.empty()) return path;
  std::string fallback = configured_user_catalog_path();
  if (fallback.empty()) {
    throw UsageError("no user catalog: neither XDG_DATA_HOME nor HOME is set; give --catalog DB");
  }
  return fallback;
}

Catalog open_catalog(const std::string& path) {
  if (path.empty() && !user_config().catalog_path.empty()) {
    // The config file's catalog, like --catalog: it must exist and be a catalog.
    const UserConfig& config = user_config();
    try {
      return Catalog::open_layered(config.catalog_path);
    } catch (const CatalogError& e) {
      throw ScenarioError(config.file, config.catalog_line, "[catalog] path", e.what());
    }
  }
  if (path.empty()) {
    const std::string user = default_user_catalog_path();
    std::error_code ec;
    if (user.empty() || !std::filesystem::exists(user, ec)) return Catalog::open_builtin();
    return Catalog::open_layered(user);
  }
  try {
    return Catalog::open_layered(path);
  } catch (const CatalogLocked&) {
    throw;  // a lock is a runtime failure (exit 1), not a bad file
  } catch (const CatalogError& e) {
    // A catalog file the user named is input: a bad one is bad input (exit 2).
    throw UsageError(std::string("--catalog: ") + e.what());
  }
}

JsonStamp json_stamp(const Catalog& catalog) {
  return {catalog.schema_version(), catalog.data_date()};
}

std::vector<CommandInput> catalog_inputs(const std::string& path) {
  if (!path.empty()) return {{"the catalog given with --catalog", path}};
  const std::string user = default_user_catalog_path();
  std::error_code ec;
  if (user.empty() || !std::filesystem::exists(user, ec)) return {};
  return {{"the user catalog", user}};
}

void check_catalog_destination(const std::string& db, const std::string& import_file) {
  struct stat info {};
  if (::lstat(db.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
    std::error_code ec;
    const auto target = std::filesystem::canonical(db, ec);
    throw UsageError("--catalog: " + db +
                     " is a symbolic link; a catalog is written in place, never through a "
                     "link: give the file itself" +
                     (ec ? std::string() : " (--catalog " + target.string() + ")"));
  }
  check_output_path(db, {{"the file to import", import_file}});
}

}  // namespace gputco::cli
