#include "cli/environment.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "scenarios/overrides.hpp"

namespace gputco::cli {

std::string xdg_file(const char* variable, const char* home_default, const char* name) {
  namespace fs = std::filesystem;
  const char* base = std::getenv(variable);
  if (base != nullptr && fs::path(base).is_absolute()) {
    return (fs::path(base) / "gputco" / name).string();
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && fs::path(home).is_absolute()) {
    return (fs::path(home) / home_default / "gputco" / name).string();
  }
  return {};
}

std::string default_user_config_path() {
  return xdg_file("XDG_CONFIG_HOME", ".config", "config.ini");
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
