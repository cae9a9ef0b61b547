// The user's config file, found through the environment (XDG Base Directory Specification)
// and read once per run.
#pragma once

#include <string>
#include <vector>

#include "scenarios/user_config.hpp"

namespace gputco::cli {

/// A file of gputco under an XDG base directory (XDG Base Directory Specification):
/// $VARIABLE/gputco/NAME when the variable holds an absolute path, else
/// $HOME/HOME_DEFAULT/gputco/NAME (HOME_DEFAULT e.g. ".config"); "" when neither is usable.
std::string xdg_file(const char* variable, const char* home_default, const char* name);

/// Where the config file lives: $XDG_CONFIG_HOME/gputco/config.ini when XDG_CONFIG_HOME is
/// an absolute path, else $HOME/.config/gputco/config.ini; "" when neither variable is usable.
std::string default_user_config_path();

/// The config file at default_user_config_path(), read on first use (an absent file is an
/// empty config). Throws ScenarioError (exit 2) for a broken one, naming file, line and key.
const UserConfig& user_config();

/// What a run puts into the scenario besides its file: each `--unset SECTION.KEY` of `unsets`
/// first (parse_unset_option: as if the file did not give the key), then the config file's
/// defaults, then each `--set SECTION.KEY=VALUE` of `sets` in order (parse_set_option; later
/// ones win). Throws ScenarioError for a broken config file, a malformed --set or --unset, or
/// a key both set and unset (exit 2).
std::vector<ScenarioOverride> scenario_overrides(const std::vector<std::string>& sets,
                                                 const std::vector<std::string>& unsets = {});

/// The help line of --unset, shared by plan, risk and sweep.
inline constexpr const char* kUnsetOptionHelp =
    "remove a key of the scenario (repeatable), as if the file did not give it, e.g. "
    "workload.peak_factor (then --set workload.hourly_profile=...)";

}  // namespace gputco::cli
