#include "scenarios/inline_parts.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <limits>
#include <optional>

#include "engine/base/error.hpp"
#include "engine/hardware/hardware.hpp"
#include "engine/hardware/power_limit.hpp"
#include "scenarios/json_nesting.hpp"
#include "scenarios/section_reader.hpp"

namespace gputco::scenario_detail {

namespace {

namespace pt = boost::property_tree;
using nlohmann::json;

const std::vector<std::string> kDeviceKeys = {
    "name",           "vendor",        "kind",         "memory_gb",  "memory_type",
    "bandwidth_gbps", "board_power_w", "fp16_tflops",  "fp8_tflops", "fp4_tflops",
    "nvlink_gbps",    "backend",       "power_limit_w"};

// One value of the [model] section as config.json would hold it.
json config_value(const pt::ptree& node, const std::string& key, Scenario& s) {
  if (!node.empty()) {
    // A JSON scenario's nested object or array: property_tree keeps arrays as children
    // without keys.
    const bool array = node.begin()->first.empty();
    json out = array ? json::array() : json::object();
    for (const auto& [child_key, child] : node) {
      if (array) {
        out.push_back(config_value(child, key, s));
      } else if (out.contains(child_key)) {
        // A JSON scenario's nested object naming a key twice: property_tree keeps both.
        throw ScenarioError(s.file, s.line_of("model", key), "[model] " + key,
                            JsonDuplicateKey(child_key).what());
      } else {
        out[child_key] = config_value(child, key, s);
      }
    }
    return out;
  }
  const std::string& text = node.data();
  if (text == "true") return true;
  if (text == "false") return false;
  if (!text.empty() && (text.front() == '[' || text.front() == '{')) {
    try {
      return parse_json_bounded(text);
    } catch (const JsonTooDeep& e) {
      throw ScenarioError(s.file, s.line_of("model", key), "[model] " + key, e.what());
    } catch (const JsonDuplicateKey& e) {
      throw ScenarioError(s.file, s.line_of("model", key), "[model] " + key, e.what());
    } catch (const json::exception&) {  // not JSON, or a number beyond a double
      throw ScenarioError(s.file, s.line_of("model", key), "[model] " + key,
                          "expected a JSON value (as config.json holds it), got '" + text + "'");
    }
  }
  const std::string dotted = decimal_comma_as_dot(text);
  long long whole = 0;
  const char* end = dotted.data() + dotted.size();
  if (const auto [ptr, ec] = std::from_chars(dotted.data(), end, whole);
      !dotted.empty() && ec == std::errc() && ptr == end) {
    return whole;
  }
  double number = 0;
  if (const auto [ptr, ec] = std::from_chars(dotted.data(), end, number);
      !dotted.empty() && ec == std::errc() && ptr == end) {
    return number;
  }
  return text;
}

}  // namespace

ScenarioDevice read_device_section(const pt::ptree& tree, const std::string& section,
                                   Scenario& scenario) {
  SectionReader r(tree, section, scenario, kDeviceKeys);
  ScenarioDevice out;
  Device& d = out.device;
  d.id = section.substr(std::string("device:").size());
  d.name = d.id;
  r.text("name", d.name);
  std::string vendor;
  r.choice("vendor", vendor, {"nvidia", "amd", "intel", "apple"});
  if (vendor.empty()) {
    r.fail("vendor", "missing: nvidia, amd, intel or apple (it sets the default backend)");
  }
  d.vendor = *parse_vendor(vendor);
  std::string kind = d.vendor == Vendor::apple ? "unified" : "consumer";
  r.choice("kind", kind, {"consumer", "workstation", "datacenter", "unified"});
  d.kind = *parse_device_kind(kind);
  const auto figure = [&](const char* key, const char* missing) -> std::optional<double> {
    const auto value = r.number(key, 0, std::numeric_limits<double>::max(), "a number");
    if (!value) {
      if (missing != nullptr) r.fail(key, std::string("missing: ") + missing);
      return std::nullopt;
    }
    if (const std::string problem = figure_problem(key, *value); !problem.empty()) {
      r.fail(key, problem);
    }
    return value;
  };
  d.memory_nameplate_gb = *figure("memory_gb", "the memory in GB as the vendor states it (24)");
  d.bandwidth_gbps = *figure("bandwidth_gbps", "the peak memory bandwidth in GB/s (936)");
  d.board_power_w = figure("board_power_w", nullptr).value_or(0);
  d.fp16_tflops = figure("fp16_tflops", nullptr).value_or(0);
  d.fp8_tflops = figure("fp8_tflops", nullptr).value_or(0);
  d.fp4_tflops = figure("fp4_tflops", nullptr).value_or(0);
  d.nvlink_gbps = figure("nvlink_gbps", nullptr).value_or(0);
  if (const auto limit = r.number("power_limit_w", 1, 20'000, "a power in W")) {
    d.power_limit_w = *limit;
    try {
      power_limit_effect(d);
    } catch (const EngineError& e) {
      r.fail("power_limit_w", e.what());
    }
  }
  r.text("memory_type", d.memory_type);
  r.choice("backend", out.backend, {"cuda", "metal", "rocm", "vulkan", "sycl"});
  return out;
}

ScenarioModel read_model_section(const pt::ptree& tree, Scenario& scenario) {
  ScenarioModel out;
  json config = json::object();
  for (const auto& [key, child] : tree) {
    if (config.contains(key) || (key == "name" && scenario.given.count("model.name") > 0)) {
      throw ScenarioError(scenario.file, scenario.line_of("model", key), "[model] " + key,
                          "duplicate key: give each key once");
    }
    scenario.given["model." + key] = true;
    if (key == "name") {
      out.name = child.data();
    } else {
      config[key] = config_value(child, key, scenario);
    }
  }
  out.config_json = config.dump();
  return out;
}

}  // namespace gputco::scenario_detail
