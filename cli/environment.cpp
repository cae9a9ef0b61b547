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

std::vector<ScenarioOverride> scenario_overrides(const std::vector<std::string>& sets,
                                                 const std::vector<std::string>& unsets) {
  std::vector<ScenarioOverride> overrides;
  for (const auto& unset : unsets) overrides.push_back(parse_unset_option(unset));
  const std::size_t unset_count = overrides.size();
  const auto& defaults = user_config().defaults;
  overrides.insert(overrides.end(), defaults.begin(), defaults.end());
  for (const auto& set : sets) {
    ScenarioOverride o = parse_set_option(set);
    for (std::size_t i = 0; i < unset_count; ++i) {
      if (overrides[i].section == o.section && overrides[i].key == o.key) {
        throw ScenarioError("--set", 0, set,
                            "--unset " + o.section + "." + o.key +
                                " removes the key this sets; give one of the two");
      }
    }
    overrides.push_back(std::move(o));
  }
  return overrides;
}

}  // namespace gputco::cli
