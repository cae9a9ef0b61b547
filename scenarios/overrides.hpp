// Values put into a scenario from outside its file: the user's config file (defaults),
// `plan --set SECTION.KEY=VALUE` and `gputco sweep` (ScenarioOverride, scenarios/scenario.hpp).
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco {

/// The keys of `section` that a value of `key` replaces: they say the same thing another
/// way, and the file may not give both (workload tokens_per_day <-> requests_per_day;
/// grid_region <-> grid_g_co2e_per_kwh of [site] or an option) or the value given would be
/// ignored (a [site] tariff id replaces tariff_per_kwh, which wins over it; tariff_per_kwh
/// keeps the tariff, whose region still names the grid). Empty for most keys.
std::vector<std::string> superseded_keys(const std::string& section, const std::string& key);

/// Puts `overrides` into the parsed `tree` of `scenario`'s file, in order: a value replaces
/// the key (and removes superseded_keys), nullopt removes it, a default (only_if_absent) is
/// skipped when the file gives the key, a key it supersedes, or a key that supersedes it.
/// [scenario], [workload] and [site] are created when the file has none ([site] always, so
/// that its number keys are listed); an option the file lacks throws ScenarioError naming
/// the override's origin (else the file). Origins are recorded in `scenario.origins`.
void apply_overrides(boost::property_tree::ptree& tree,
                     const std::vector<ScenarioOverride>& overrides, Scenario& scenario);

/// `text` of `gputco plan --set SECTION.KEY=VALUE` as an override whose origin is "--set
/// TEXT": SECTION is scenario, workload, site or option:ID; the value is checked when the
/// scenario is parsed. Throws ScenarioError (file "--set") when the shape is wrong or the
/// key is not a key of the section (naming the nearest).
ScenarioOverride parse_set_option(const std::string& text);

/// `text` of `gputco plan --unset SECTION.KEY` as an override that removes the key (value
/// nullopt), as if the file did not give it (issue #43: to give hourly_profile in place of the
/// file's peak_factor from the command line). Checked as parse_set_option checks the name.
/// Throws ScenarioError (file "--unset") on a value given ("=..."), a wrong shape, or a key
/// that is not a key of the section (naming the nearest).
ScenarioOverride parse_unset_option(const std::string& text);

}  // namespace gputco
