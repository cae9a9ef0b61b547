// The user's defaults: a config file (INI) of [scenario] and [site] keys every plan would
// otherwise repeat (currency, discount rate, tariff, PUE, ...) and the catalog to use.
// Precedence: the built-in default < this file < the scenario file < --set.
#pragma once

#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco {

/// A config file as read.
struct UserConfig {
  std::string file;  ///< the path read; "" when there is none
  /// [scenario] and [site] values, in file order, each only_if_absent with its origin
  /// ("config file PATH line N"): a scenario file's own value (or a key that says the same
  /// another way) wins.
  std::vector<ScenarioOverride> defaults;
  /// [catalog] path: the user catalog (price books) to use when no --catalog is given;
  /// relative to the config file's folder; "" when not set.
  std::string catalog_path;
  int catalog_line = 0;  ///< its line in the file
};

/// The keys of [scenario] a config file may not hold: they describe one scenario, not a
/// user's habits (name, as_of, start, baseline, proposed, customer, quote_id).
bool is_per_scenario_key(const std::string& key);

/// Reads the config file at `path`; a path that does not exist is no config (an empty
/// UserConfig: the file is optional). Sections: [scenario] (its keys but the per-scenario
/// ones), [site] (every key), [catalog] (path). Values are type-checked when a scenario is
/// read with them, and a bad one is then named with this file and line. Throws
/// ScenarioError naming the file, line and key: not text or not UTF-8, a syntax error, an
/// unknown section or key (with the nearest), a per-scenario key, an empty catalog path.
UserConfig load_user_config(const std::string& path);

}  // namespace gputco
