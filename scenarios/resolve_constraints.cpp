// Constraints: which options may be chosen (scenarios/constraints.hpp), as inputs and as each
// option's exclusion reason.
#include <algorithm>
#include <string>
#include <vector>

#include "scenarios/constraints.hpp"
#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

void Resolver::resolve_scenario_constraints() {
  if (!s_.required_tags.empty()) {
    text("constraints", "requires", "Every option must meet", joined(s_.required_tags));
  }
  if (!s_.site_region.empty()) {
    text("constraints", "site_region", "Region of the site (owned hardware on site)",
         s_.site_region);
  }
}

void Resolver::resolve_option_constraints(const ScenarioOption& o, OptionInputs& oi) {
  using scenario_detail::ConstraintSubject;
  std::vector<std::string> required = s_.required_tags;
  for (const auto& tag : o.required_tags) {
    if (std::find(required.begin(), required.end(), tag) == required.end()) required.push_back(tag);
  }
  ConstraintSubject subject;
  subject.on_site_owned = oi.kind == OptionKind::buy && oi.hosting == Hosting::on_site;
  subject.offers = o.offered_tags;
  std::string region_provenance;
  if (!o.region.empty()) {
    subject.region = o.region;
  } else if (subject.on_site_owned && !s_.site_region.empty()) {
    subject.region = s_.site_region;
    subject.region_source = "the site's, [constraints] site_region";
    region_provenance = "[constraints] site_region (owned hardware on site)";
  } else if (oi.kind != OptionKind::api && !offer_region_.empty()) {
    subject.region = offer_region_;
    subject.region_source = "the catalog offer's";
    region_provenance = "catalog offer region";
  }

  std::vector<std::string> reasons;
  if (!o.allowed) reasons.push_back("not allowed: " + o.reason);
  for (const auto& tag : required) {
    if (auto why = scenario_detail::unmet_requirement(tag, subject); !why.empty()) {
      reasons.push_back(std::move(why));
    }
  }
  for (const auto& reason : reasons) {
    oi.excluded_reason += (oi.excluded_reason.empty() ? "" : "; ") + reason;
  }

  // Inputs: only what the scenario states or a requirement reads, so a plan without
  // constraints lists none.
  if (given("option:" + o.id, "allowed")) {
    text(o.id, "allowed", "Allowed", o.allowed ? "yes" : "no: " + o.reason);
  }
  if (!o.required_tags.empty()) {
    text(o.id, "requires", "Must also meet", joined(o.required_tags));
  }
  if (!o.offered_tags.empty()) text(o.id, "offers", "Meets as stated", joined(o.offered_tags));
  if (!o.region.empty() || (!required.empty() && !subject.region.empty())) {
    text(o.id, "region", "Region where it runs", subject.region, region_provenance);
  }
  if (!oi.excluded_reason.empty()) {
    text(o.id, "excluded", "Excluded (never recommended)", oi.excluded_reason,
         "constraints: allowed, requires");
  }
}

}  // namespace gputco::resolve_detail
