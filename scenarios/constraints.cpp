#include "scenarios/constraints.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "pricing/suggest.hpp"

namespace gputco::scenario_detail {

namespace {

/// The EU's 27 members and the EEA's other three (Iceland, Liechtenstein, Norway), as
/// ISO 3166-1 alpha-2 codes (Greece as both GR and the EU's own EL) and English names.
const std::set<std::string> kEuEeaWords = {
    "eu",      "eea",      "europe",      "at",        "austria", "be",         "belgium",
    "bg",      "bulgaria", "hr",          "croatia",   "cy",      "cyprus",     "cz",
    "czechia", "czech",    "dk",          "denmark",   "ee",      "estonia",    "fi",
    "finland", "fr",       "france",      "de",        "germany", "gr",         "el",
    "greece",  "hu",       "hungary",     "ie",        "ireland", "it",         "italy",
    "lv",      "latvia",   "lt",          "lithuania", "lu",      "luxembourg", "mt",
    "malta",   "nl",       "netherlands", "pl",        "poland",  "pt",         "portugal",
    "ro",      "romania",  "sk",          "slovakia",  "si",      "slovenia",   "es",
    "spain",   "se",       "sweden",      "is",        "iceland", "li",         "liechtenstein",
    "no",      "norway"};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// A comma list of requirement tags; throws (r.fail) on an empty item or an unknown tag.
std::vector<std::string> tag_list(const SectionReader& r, const std::string& key) {
  std::vector<std::string> tags;
  const auto value = r.text(key);
  if (!value) return tags;
  const std::string& text = *value;
  size_t from = 0;
  while (true) {
    const size_t comma = text.find(',', from);
    const std::string tag =
        trimmed(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (tag.empty()) {
      r.fail(key, "expected a comma list of requirement tags (" + std::string("eu-data-residency") +
                      ", on-premises), found an empty item in '" + text + "'");
    }
    const auto& known = requirement_tags();
    if (std::find(known.begin(), known.end(), tag) == known.end()) {
      r.fail(key, "unknown requirement tag '" + tag + "'" + did_you_mean(tag, known) +
                      " (known: eu-data-residency, on-premises)");
    }
    if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return tags;
}

}  // namespace

const std::vector<std::string>& requirement_tags() {
  static const std::vector<std::string> tags = {"eu-data-residency", "on-premises"};
  return tags;
}

const std::vector<std::string>& constraints_keys() {
  static const std::vector<std::string> keys = {"requires", "site_region"};
  return keys;
}

void read_constraints_section(const boost::property_tree::ptree& tree, Scenario& scenario) {
  SectionReader r(tree, "constraints", scenario, constraints_keys());
  scenario.required_tags = tag_list(r, "requires");
  r.text("site_region", scenario.site_region);
  if (scenario.given.count("constraints.site_region") && trimmed(scenario.site_region).empty()) {
    r.fail("site_region", "empty: give the region of the plan's site (e.g. DE, eu, us-east)");
  }
}

void read_option_constraints(const SectionReader& r, ScenarioOption& o) {
  std::string allowed = "yes";
  r.choice("allowed", allowed, {"yes", "no"});
  o.allowed = allowed == "yes";
  r.text("reason", o.reason);
  const bool reason_given = r.text("reason").has_value();
  if (reason_given && o.allowed) {
    r.fail("reason", "applies to allowed = no only (the reason an option is excluded)");
  }
  if (!o.allowed && trimmed(o.reason).empty()) {
    r.fail(reason_given ? "reason" : "allowed",
           "an excluded option needs its reason: give reason = ... (e.g. \"data must stay in "
           "the EU\")");
  }
  o.required_tags = tag_list(r, "requires");
  o.offered_tags = tag_list(r, "offers");
  r.text("region", o.region);
  if (r.text("region") && trimmed(o.region).empty()) {
    r.fail("region", "empty: give where the option runs (e.g. eu-west1, DE, us-east-1)");
  }
}

namespace {

// Azure runs a region's words together: westeurope, northeurope, germanywestcentral,
// francecentral, swedencentral, polandcentral, italynorth, norwayeast. A word that ends in
// "europe", or that is an EU/EEA country's English name followed by compass words only.
bool is_run_together_eu_region(const std::string& word) {
  const std::string europe = "europe";
  if (word.size() > europe.size() &&
      word.compare(word.size() - europe.size(), europe.size(), europe) == 0) {
    return true;
  }
  for (const std::string& name : kEuEeaWords) {
    if (name.size() < 4 || word.size() <= name.size() || word.compare(0, name.size(), name) != 0) {
      continue;
    }
    std::string rest = word.substr(name.size());
    while (!rest.empty()) {
      bool cut = false;
      for (const std::string compass : {"north", "south", "east", "west", "central"}) {
        if (rest.compare(0, compass.size(), compass) == 0) {
          rest.erase(0, compass.size());
          cut = true;
          break;
        }
      }
      if (!cut) break;
    }
    if (rest.empty()) return true;
  }
  return false;
}

}  // namespace

bool is_eu_region(const std::string& region) {
  std::string word;
  const auto matches = [&]() {
    while (!word.empty() && std::isdigit(static_cast<unsigned char>(word.back()))) word.pop_back();
    const bool found = kEuEeaWords.count(word) > 0 || is_run_together_eu_region(word);
    word.clear();
    return found;
  };
  for (const char c : lower(region)) {
    if (c == '-' || c == '_' || c == ' ' || c == '/') {
      if (matches()) return true;
    } else {
      word.push_back(c);
    }
  }
  return matches();
}

std::string unmet_requirement(const std::string& tag, const ConstraintSubject& subject) {
  if (std::find(subject.offers.begin(), subject.offers.end(), tag) != subject.offers.end()) {
    return "";
  }
  if (tag == "eu-data-residency") {
    if (subject.region.empty() && subject.on_site_owned) {
      // Owned hardware on the plan's site is where the site is: the site's region is the fix.
      return "requires eu-data-residency, but the region of the plan's site is not known (set "
             "site_region = ... in [constraints], e.g. DE, or region = ... on the option)";
    }
    if (subject.region.empty()) {
      return "requires eu-data-residency, but its region is not known (set region = ... on the "
             "option, or offers = eu-data-residency where a contract guarantees it)";
    }
    if (is_eu_region(subject.region)) return "";
    return "requires eu-data-residency, but it runs in region '" + subject.region + "'" +
           (subject.region_source.empty() ? "" : " (" + subject.region_source + ")") +
           ", outside the EU/EEA";
  }
  if (tag == "on-premises") {
    if (subject.on_site_owned) return "";
    return "requires on-premises, but it is not owned hardware on the plan's site";
  }
  return "requires " + tag + ", a tag gputco does not know";
}

}  // namespace gputco::scenario_detail
