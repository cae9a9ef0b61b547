// The [workload] section of a scenario file. Internal to scenarios/: scenario.cpp reads the
// sections.
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco::scenario_detail {

/// The keys a [workload] section may hold.
extern const std::vector<std::string> kWorkloadKeys;

/// Reads the [workload] section (`tree`) into `scenario`: every key checked for its range and
/// its companions. Throws ScenarioError naming the key and its line.
void read_workload_section(const boost::property_tree::ptree& tree, Scenario& scenario);

}  // namespace gputco::scenario_detail
