// A catalog source as a customer reads it: who published the figure, and where to find it.
#pragma once

#include <string>

namespace gputco {

/// Who published a figure and its web address, from a catalog row's source text.
struct SourceCitation {
  std::string publisher;  ///< "Eurostat", "RunPod price list (via the SkyPilot catalog)", ...
  std::string address;    ///< "https://..." or "" when the text names none
};

/// Reads a catalog source text (pricing/data/*.csv `source`: a publisher, a page, a data file at
/// a commit) as a citation for a customer. In order:
/// - "no public source" (an example value): publisher "example value (no public source)";
/// - a file of the SkyPilot catalog ("skypilot-org/skypilot-catalog catalogs/v7/PROVIDER/...
///   @ COMMIT"): "PROVIDER price list (via the SkyPilot catalog)", its GitHub address;
/// - LiteLLM's price table with a key 'PROVIDER/...': "PROVIDER prices (via LiteLLM's price
///   table)";
/// - a statistics office, central bank or data publisher named in the text (Eurostat, the
///   U.S. EIA, the ECB, Electricity Maps, Ember, the EEA, SpotWire);
/// - a web address in the text ("bestllmfor.com/best/...", "https://..."): its site, and the
///   address with https:// before it;
/// - a GitHub file ("OWNER/REPO PATH @ COMMIT"): "OWNER/REPO on GitHub", its blob address;
/// - otherwise the text up to its first " (" or ", " (at most 60 characters).
/// Throws nothing.
SourceCitation cite_source(const std::string& source);

/// Where an input's value comes from (InputRow::provenance), as a customer reads it:
/// "scenario file line 12" -> "stated for this quote"; "default" / "default: WHY" -> "standard
/// assumption" / "standard assumption: WHY" (WHY without the project's internal references
/// such as "(DOMAIN E5)": a customer reads the source, not our notes); "catalog: SOURCE, observed
/// DATE[, ...][; converted ...]"
/// -> "PUBLISHER, DATE" (cite_source) with the conversion kept; anything else as it is.
/// Throws nothing.
std::string customer_provenance(const std::string& provenance);

}  // namespace gputco
