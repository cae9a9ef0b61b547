#include "cli/environment.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "scenarios/overrides.hpp"

namespace gputco::cli {

std::string default_user_config_path() {
  namespace fs = std::filesystem;
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && fs::path(xdg).is_absolute()) {
    return (fs::path(xdg) / "gputco" / "config.ini").string();
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && fs::path(home).is_absolute()) {
    return (fs::path(home) / ".config" / "gputco" / "config.ini").string();
  }
  return {};
}

const UserConfig& user_config() {
  static std::optional<UserConfig> config;
  if (!config) config = load_user_config(default_user_config_path());
  return *config;
}

std::vector<ScenarioOverride> scenario_overrides(const std::vector<std::string>& sets) {
  std::vector<ScenarioOverride> overrides = user_config().defaults;
  for (const auto& set : sets) overrides.push_back(parse_set_option(set));
  return overrides;
}

}  // namespace gputco::cli
