#include "scenarios/overrides.hpp"

#include <algorithm>

#include "pricing/visible_text.hpp"
#include "pricing/suggest.hpp"

namespace gputco {

namespace pt = boost::property_tree;

namespace {

/// A key that replaces another: `replaced` of the same section when `key` is given.
struct Supersedes {
  const char* section;  ///< "scenario", "workload", "site", or "option:" for every option
  const char* key;
  const char* replaced;
};

constexpr Supersedes kSupersedes[] = {
    {"workload", "tokens_per_day", "requests_per_day"},
    {"workload", "requests_per_day", "tokens_per_day"},
    {"site", "grid_region", "grid_g_co2e_per_kwh"},
    {"site", "grid_g_co2e_per_kwh", "grid_region"},
    {"site", "tariff", "tariff_per_kwh"},
    {"option:", "grid_region", "grid_g_co2e_per_kwh"},
    {"option:", "grid_g_co2e_per_kwh", "grid_region"},
};

bool same_section(const char* rule, const std::string& section) {
  const std::string r = rule;
  return r == "option:" ? section.rfind("option:", 0) == 0 : r == section;
}

/// The keys that supersede `key` of `section`.
std::vector<std::string> superseding_keys(const std::string& section, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& rule : kSupersedes) {
    if (same_section(rule.section, section) && key == rule.replaced) out.emplace_back(rule.key);
  }
  return out;
}

bool has_key(const pt::ptree& section, const std::string& key) {
  return section.find(key) != section.not_found();
}

}  // namespace

std::vector<std::string> superseded_keys(const std::string& section, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& rule : kSupersedes) {
    if (same_section(rule.section, section) && key == rule.key) out.emplace_back(rule.replaced);
  }
  return out;
}

namespace {

/// The sections --set and a config file may name besides option:ID, created when the scenario
/// has none ([site] always exists). [seller] is the quote's and is set in the file.
const std::vector<std::string> kSetSections = {"scenario", "workload",    "site", "tax",
                                               "fx",       "constraints", "risk"};

}  // namespace

void apply_overrides(pt::ptree& tree, const std::vector<ScenarioOverride>& overrides,
                     Scenario& scenario) {
  const auto section_of = [&](const std::string& name) -> pt::ptree* {
    if (auto child = tree.get_child_optional(pt::ptree::path_type(name, '\0'))) return &*child;
    return nullptr;
  };
  if (!section_of("site")) tree.push_back({"site", pt::ptree()});
  for (const auto& o : overrides) {
    pt::ptree* section = section_of(o.section);
    if (!section) {
      if (std::find(kSetSections.begin(), kSetSections.end(), o.section) == kSetSections.end()) {
        const std::string file = o.origin ? o.origin->file : scenario.file;
        // The options the file has, to pick from: "option:nope" names none of them.
        std::string known;
        for (const auto& [name, child] : tree) {
          if (name.rfind("option:", 0) == 0) known += (known.empty() ? "[" : ", [") + name + "]";
        }
        const bool an_option = o.section.rfind("option:", 0) == 0;
        throw ScenarioError(file, o.origin ? o.origin->line : 0, "[" + o.section + "]",
                            "no such section in " +
                                (o.origin ? "the scenario " + scenario.file : "the file") +
                                (an_option && !known.empty() ? "; its options: " + known : ""));
      }
      section = &tree.push_back({o.section, pt::ptree()})->second;
    }
    if (o.only_if_absent) {
      std::vector<std::string> related = superseded_keys(o.section, o.key);
      const auto other = superseding_keys(o.section, o.key);
      related.insert(related.end(), other.begin(), other.end());
      related.push_back(o.key);
      if (std::any_of(related.begin(), related.end(),
                      [&](const std::string& k) { return has_key(*section, k); })) {
        continue;  // the scenario file says it: it wins over the config file
      }
    }
    const std::string path = o.section + "." + o.key;
    if (o.value) {
      section->put(pt::ptree::path_type(o.key, '\0'), *o.value);
      for (const auto& replaced : superseded_keys(o.section, o.key)) section->erase(replaced);
    } else {
      section->erase(o.key);
    }
    // A removed key has no origin: the parser's default (or the config file's) speaks.
    if (o.origin && o.value) {
      scenario.origins[path] = *o.origin;
    } else {
      scenario.origins.erase(path);
    }
  }
}

namespace {

/// SECTION.KEY of `name` into `o`'s section and key, checked: a section --set may name and a
/// key of it. Throws `fail(problem)` on a wrong shape, section or key.
template <typename Fail>
void set_section_and_key(const std::string& name, const char* expected, ScenarioOverride& o,
                         const Fail& fail) {
  // [risk] fx.USD: that section's keys hold a dot of their own.
  const auto dot = name.rfind("risk.", 0) == 0 ? name.find('.') : name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) throw fail(expected);
  o.section = name.substr(0, dot);
  o.key = name.substr(dot + 1);
  const bool option = o.section.rfind("option:", 0) == 0 && o.section.size() > 7;
  if (!option &&
      std::find(kSetSections.begin(), kSetSections.end(), o.section) == kSetSections.end()) {
    std::string sections;
    for (const auto& section : kSetSections) sections += (sections.empty() ? "" : ", ") + section;
    throw fail("unknown section '" + o.section + "'" + did_you_mean(o.section, kSetSections) +
               "; expected " + sections + " or option:ID");
  }
  if (!is_scenario_key(o.section, o.key)) {
    throw fail("'" + o.key + "' is not a key of [" + o.section + "]" +
               did_you_mean(o.key, scenario_keys(o.section)));
  }
}

}  // namespace

ScenarioOverride parse_unset_option(const std::string& text) {
  const auto fail = [&](const std::string& problem) -> ScenarioError {
    return ScenarioError("--unset", 0, text, problem);
  };
  if (text.find('=') != std::string::npos) {
    throw fail(
        "expected SECTION.KEY without a value (--set gives one), e.g. "
        "workload.peak_factor");
  }
  ScenarioOverride o;
  set_section_and_key(
      text, "expected SECTION.KEY, e.g. workload.peak_factor or option:rig.host_cost", o, fail);
  o.origin = ValueOrigin{"--unset " + text, 0, "--unset " + text};
  return o;
}

ScenarioOverride parse_set_option(const std::string& text) {
  // The argument as messages quote it: a line break or an escape sequence in it is shown,
  // never printed (a newline in --set forged a second line of the error).
  const std::string shown = visible_text(text);
  const ValueOrigin origin{"--set " + shown, 0, "--set " + shown};
  const auto fail = [&](const std::string& problem) -> ScenarioError {
    return ScenarioError("--set", 0, shown, visible_text(problem));
  };
  const auto eq = text.find('=');
  const char* expected =
      "expected SECTION.KEY=VALUE, e.g. workload.hours_per_day=10 or "
      "option:rig.price_per_gpu=700";
  if (eq == std::string::npos) throw fail(expected);
  ScenarioOverride o;
  set_section_and_key(text.substr(0, eq), expected, o, fail);
  o.value = text.substr(eq + 1);
  o.origin = origin;
  return o;
}

}  // namespace gputco
