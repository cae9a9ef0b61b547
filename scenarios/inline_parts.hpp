// A device and a model described in the scenario file itself: `[device:ID]` sections and the
// `[model]` section (README "Devices and models described in the file"). Internal to
// scenarios/: scenario.cpp reads the sections, resolve.cpp uses them.
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <string>

#include "scenarios/scenario.hpp"

namespace gputco::scenario_detail {

/// Reads the section `device:ID` (`tree`) into a ScenarioDevice: vendor, memory_gb and
/// bandwidth_gbps required; kind (default consumer, unified for apple), board_power_w,
/// fp16_tflops, fp8_tflops, fp4_tflops, nvlink_gbps, memory_type, name (default the id) and backend
/// optional. Every figure is checked by engine figure_problem: zero, negative or beyond any part
/// ("must be at most 16384 GB (beyond any device: a unit slip?)") is refused. Throws ScenarioError
/// naming the section, the key and its line.
ScenarioDevice read_device_section(const boost::property_tree::ptree& tree,
                                   const std::string& section, Scenario& scenario);

/// Reads the `[model]` section (`tree`): `name` (the model's id; default "model") and
/// config.json's fields, each value as config.json would hold it (true/false a boolean, a
/// number a number, text starting with [ or { parsed as JSON, anything else a string; a JSON
/// scenario's nested objects stay objects), kept as JSON text for resolve() to read
/// (read_hf_config_text). Throws ScenarioError naming the key: a [ or { value that is not
/// JSON, a key given twice.
ScenarioModel read_model_section(const boost::property_tree::ptree& tree, Scenario& scenario);

}  // namespace gputco::scenario_detail
