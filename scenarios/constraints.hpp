// Constraints: options excluded for a stated reason (`allowed = no`, `reason`) or because they
// do not meet a requirement (`requires` in [constraints] or on the option, against the option's
// `region` and `offers`). README "Constraints". Internal to scenarios/: scenario.cpp reads the
// keys, resolve_constraints.cpp decides.
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"
#include "scenarios/section_reader.hpp"

namespace gputco::scenario_detail {

/// The requirement tags a scenario may name, in the order the README lists them:
/// eu-data-residency (the option runs and keeps data in the EU or EEA: its region is there, or
/// it offers the tag), on-premises (owned hardware on the plan's own site: kind buy or blend,
/// hosting on_site, or it offers the tag).
const std::vector<std::string>& requirement_tags();

/// The keys of `[constraints]`: requires, site_region.
const std::vector<std::string>& constraints_keys();

/// Reads `[constraints]` (`tree`): `requires` (a comma list of requirement tags every option
/// must meet) and `site_region` (where the plan's site is: the region of owned hardware on
/// site). Throws ScenarioError naming the key: an unknown tag (the nearest suggested), an
/// empty item.
void read_constraints_section(const boost::property_tree::ptree& tree, Scenario& scenario);

/// Reads an option's `allowed` (yes | no), `reason` (required with allowed = no, refused
/// otherwise), `requires` and `offers` (comma lists of requirement tags) and `region`.
/// Throws ScenarioError naming the key.
void read_option_constraints(const SectionReader& r, ScenarioOption& option);

/// Whether `region` (any provider's spelling: "eu", "eu-west1", "Europe-PL", "fr-par-1",
/// "helsinki-finland-2", "DE") lies in the EU or EEA: one of its words (split at '-', '_',
/// ' ' and '/', ignoring case and trailing digits) is eu, eea or europe, an EU or EEA
/// country's ISO 3166-1 alpha-2 code or its English name; or Azure's run-together names
/// (westeurope, germanywestcentral: "...europe", or a country's name and compass words).
/// "global", "us-east-1", "uksouth", "switzerlandnorth" and "" do not.
bool is_eu_region(const std::string& region);

/// What the constraints check needs to know of a resolved option.
struct ConstraintSubject {
  std::string region;               ///< where it runs ("" = not known)
  std::string region_source;        ///< where the region came from, for the reason text
  bool on_site_owned = false;       ///< owned hardware on the plan's site
  std::vector<std::string> offers;  ///< tags it meets as stated (`offers`)
};

/// Why `subject` fails `tag`, one clause ("runs in region 'global' (the catalog offer's),
/// outside the EU/EEA"); "" when it meets it.
std::string unmet_requirement(const std::string& tag, const ConstraintSubject& subject);

}  // namespace gputco::scenario_detail
