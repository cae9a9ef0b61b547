#include "reports/source_citation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <regex>
#include <string_view>
#include <utility>

namespace gputco {
namespace {

/// Provider ids of the catalog (rental offers, API keys) as their owners write them.
std::string provider_name(const std::string& id) {
  static const std::array<std::pair<std::string_view, std::string_view>, 22> kNames = {{
      {"aws", "AWS"},
      {"gcp", "Google Cloud"},
      {"azure", "Microsoft Azure"},
      {"lambda", "Lambda"},
      {"runpod", "RunPod"},
      {"nebius", "Nebius"},
      {"scaleway", "Scaleway"},
      {"ovh", "OVHcloud"},
      {"ovhcloud", "OVHcloud"},
      {"hetzner", "Hetzner"},
      {"shadeform", "Shadeform"},
      {"vast", "Vast.ai"},
      {"fluidstack", "FluidStack"},
      {"paperspace", "Paperspace"},
      {"do", "DigitalOcean"},
      {"cudo", "Cudo Compute"},
      {"groq", "Groq"},
      {"together_ai", "Together AI"},
      {"deepinfra", "DeepInfra"},
      {"fireworks_ai", "Fireworks AI"},
      {"deepseek", "DeepSeek"},
      {"openai", "OpenAI"},
  }};
  for (const auto& [key, name] : kNames) {
    if (id == key) return std::string(name);
  }
  if (id == "anthropic") return "Anthropic";
  std::string name = id;
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

/// Publishers named in source texts, by a word that identifies them.
std::string known_publisher(const std::string& source) {
  static const std::array<std::pair<std::string_view, std::string_view>, 9> kPublishers = {{
      {"Eurostat", "Eurostat"},
      {"EIA ", "U.S. Energy Information Administration (EIA)"},
      {"ECB", "European Central Bank (ECB)"},
      {"electricity-maps", "Electricity Maps (via co2.js)"},
      {"Ember", "Ember (via co2.js)"},
      {"EEA ", "European Environment Agency (EEA)"},
      {"SpotWire", "SpotWire"},
      {"GPU Lease Rate Index", "GPU Lease Rate Index"},
      {"simonw/llm-prices", "llm-prices (Simon Willison)"},
  }};
  for (const auto& [word, name] : kPublishers) {
    if (source.find(word) != std::string::npos) return std::string(name);
  }
  return "";
}

/// The first web address in `text` ("bestllmfor.com/best/x", "https://modal.com/blog/y"):
/// its site without "www." and the address with https://; a file name ("prices.md",
/// "vms.csv") is not a site.
std::optional<std::pair<std::string, std::string>> web_address(const std::string& text) {
  static const std::regex page(
      R"(((?:https?://)?((?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.([a-z]{2,})))(/[^\s,;:')]*)?)");
  static const std::array<std::string_view, 12> kFileTypes = {
      "md", "csv", "json", "xml", "txt", "py", "yaml", "yml", "html", "js", "sql", "ini"};
  for (std::sregex_iterator it(text.begin(), text.end(), page), end; it != end; ++it) {
    const std::string type = (*it)[3].str();
    if (std::find(kFileTypes.begin(), kFileTypes.end(), type) != kFileTypes.end()) continue;
    std::string site = (*it)[2].str();
    if (site.rfind("www.", 0) == 0) site = site.substr(4);
    const std::string found = (*it)[0].str();
    return std::make_pair(site, found.rfind("http", 0) == 0 ? found : "https://" + found);
  }
  return std::nullopt;
}

std::string github_blob(const std::string& repo, const std::string& path,
                        const std::string& commit) {
  return "https://github.com/" + repo + "/blob/" + commit + "/" + path;
}

}  // namespace

SourceCitation cite_source(const std::string& source) {
  SourceCitation out;
  if (source.find("no public source") != std::string::npos) {
    out.publisher = "example value (no public source)";
    return out;
  }
  std::smatch match;
  // A file of a GitHub repository at a commit: "OWNER/REPO PATH @ COMMIT".
  static const std::regex github(R"(([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+) (\S+) @ ([0-9a-f]{7,40}))");
  const bool on_github = std::regex_search(source, match, github);
  const std::string repo = on_github ? match[1].str() : "";
  const std::string path = on_github ? match[2].str() : "";
  const std::string commit = on_github ? match[3].str() : "";
  if (on_github) out.address = github_blob(repo, path, commit);

  static const std::regex skypilot(R"(skypilot-catalog catalogs/v\d+/([a-z_]+)/)");
  if (std::regex_search(source, match, skypilot)) {
    out.publisher = provider_name(match[1].str()) + " price list (via the SkyPilot catalog)";
    return out;
  }
  static const std::regex litellm(R"(litellm.*key '([a-z_]+)/)");
  if (std::regex_search(source, match, litellm)) {
    out.publisher = provider_name(match[1].str()) + " prices (via LiteLLM's price table)";
    return out;
  }
  if (std::string known = known_publisher(source); !known.empty()) {
    out.publisher = known;
    // The address, when the text gives one beside the name.
    if (const auto web = web_address(source); web && out.address.empty()) out.address = web->second;
    return out;
  }
  // A web page: its site is the publisher.
  if (const auto web = web_address(source); web && !on_github) {
    out.publisher = web->first;
    out.address = web->second;
    return out;
  }
  if (on_github) {
    out.publisher = repo + " on GitHub";
    return out;
  }
  size_t end = source.size();
  for (const char* stop : {" (", ", "}) end = std::min(end, source.find(stop));
  out.publisher = source.substr(0, std::min<size_t>(end, 60));
  return out;
}

namespace {

/// `text` without the project's internal references a customer cannot look up: a bracketed
/// "(DOMAIN E5)" or "(DOMAIN 'Who uses it', E6)", the space before it included.
std::string without_internal_references(std::string text) {
  for (size_t at = text.find("(DOMAIN"); at != std::string::npos; at = text.find("(DOMAIN")) {
    const size_t close = text.find(')', at);
    if (close == std::string::npos) break;
    const size_t from = at > 0 && text[at - 1] == ' ' ? at - 1 : at;
    text.erase(from, close + 1 - from);
  }
  return text;
}

}  // namespace

std::string customer_provenance(const std::string& provenance) {
  if (provenance.rfind("scenario file", 0) == 0) return "stated for this quote";
  if (provenance == "default") return "standard assumption";
  if (provenance.rfind("default: ", 0) == 0) {
    return "standard assumption: " + without_internal_references(provenance.substr(9));
  }
  // "[WHY; ]catalog: SOURCE, observed DATE, price book 'B' (stale); converted from ..."
  const std::string catalog = "catalog: ";
  const size_t at = provenance.find(catalog);
  if (at == std::string::npos) return provenance;
  const std::string before = provenance.substr(0, at);
  const size_t from = at + catalog.size();
  const size_t observed = provenance.find(", observed ", from);
  if (observed == std::string::npos) {
    return before + cite_source(provenance.substr(from)).publisher;
  }
  const std::string source = provenance.substr(from, observed - from);
  const std::string date = provenance.substr(observed + 11, 10);
  std::string out = before + cite_source(source).publisher + ", " + date;
  if (const size_t converted = provenance.find("; converted", observed);
      converted != std::string::npos) {
    out += provenance.substr(converted);
  }
  return out;
}

}  // namespace gputco
