#include "scenarios/scenario.hpp"

#include <algorithm>
#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string_view>

#include "pricing/csv_table.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/model_files.hpp"

namespace gputco {

namespace pt = boost::property_tree;

namespace {

std::string format_message(const std::string& file, int line, const std::string& key,
                           const std::string& problem) {
  std::ostringstream out;
  out << file;
  if (line > 0) out << ":" << line;
  out << ": ";
  if (!key.empty()) out << key << ": ";
  out << problem;
  return out.str();
}

}  // namespace

ScenarioError::ScenarioError(std::string file, int line, std::string key,
                             const std::string& problem)
    : std::runtime_error(format_message(file, line, key, problem)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)) {}

std::string Scenario::provenance(const std::string& section, const std::string& key) const {
  const std::string path = section + "." + key;
  if (!given.count(path)) return "default";
  const int line = line_of(section, key);
  return line > 0 ? "scenario file line " + std::to_string(line) : "scenario file";
}

int Scenario::line_of(const std::string& section, const std::string& key) const {
  const auto it = lines.find(section + "." + key);
  return it == lines.end() ? 0 : it->second;
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
  const std::string w = lower(word);
  std::string best;
  size_t best_distance = std::string::npos;
  for (const auto& candidate : candidates) {
    const std::string c = lower(candidate);
    // Levenshtein distance, one row at a time.
    std::vector<size_t> row(c.size() + 1);
    for (size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= w.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        const size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (w[i - 1] == c[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    // A candidate containing the word (or the reverse) is a likely match too ("3090" ->
    // "rtx-3090").
    size_t distance = row[c.size()];
    if (w.size() >= 3 && (c.find(w) != std::string::npos || w.find(c) != std::string::npos)) {
      distance = std::min(distance, size_t{1});
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  const size_t limit = std::max<size_t>(2, w.size() / 3);
  return best_distance <= limit ? best : "";
}

namespace {

const std::vector<std::string> kScenarioKeys = {"name",
                                                "currency",
                                                "start",
                                                "horizon_months",
                                                "discount_rate",
                                                "as_of",
                                                "customer",
                                                "quote_id",
                                                "paper",
                                                "proposed",
                                                "valid_days",
                                                "max_price_age_days",
                                                "baseline",
                                                "vat_rate",
                                                "vat_reclaimable",
                                                "rent_trend_per_year",
                                                "api_price_trend_per_year",
                                                "hours_per_month_convention",
                                                "useful_life_months",
                                                "price_basis",
                                                "prefer_fresh_prices"};
const std::vector<std::string> kWorkloadKeys = {"model",
                                                "quant",
                                                "context_tokens",
                                                "concurrent_streams",
                                                "hours_per_day",
                                                "days_per_month",
                                                "kv_cache",
                                                "cache_type_k",
                                                "cache_type_v",
                                                "growth_per_month",
                                                "tokens_per_day",
                                                "users",
                                                "overflow",
                                                "overflow_option",
                                                "requests_per_day",
                                                "prompt_tokens_per_request",
                                                "output_tokens_per_request",
                                                "input_tokens_per_output_token",
                                                "availability"};
const std::vector<std::string> kSiteKeys = {"tariff_per_kwh",
                                            "tariff",
                                            "pue",
                                            "tariff_trend_per_year",
                                            "grid_region",
                                            "grid_g_co2e_per_kwh",
                                            "green_power",
                                            "green_power_g_co2e_per_kwh"};
const std::vector<std::string> kSellerKeys = {"company", "contact", "logo", "terms"};
const std::vector<std::string> kOptionKeys = {"kind",
                                              "label",
                                              "gpu",
                                              "count",
                                              "condition",
                                              "price_per_gpu",
                                              "host_cost",
                                              "host_power_w",
                                              "residual_fraction",
                                              "maintenance_per_year",
                                              "rate_per_gpu_hour",
                                              "price_per_month",
                                              "setup_fee",
                                              "provider",
                                              "split",
                                              "backend",
                                              "term",
                                              "goodput",
                                              "billing",
                                              "min_instances",
                                              "billing_granularity",
                                              "notice_months",
                                              "warranty_months",
                                              "annual_failure_rate",
                                              "hosting",
                                              "colo_per_kw_month",
                                              "colo_per_rack_unit_month",
                                              "rack_units",
                                              "contracted_kw",
                                              "kw_step",
                                              "power_metered",
                                              "pue",
                                              "tariff_per_kwh",
                                              "financing",
                                              "down_payment",
                                              "loan_rate",
                                              "loan_term_months",
                                              "lease_rate_per_month",
                                              "lease_term_months",
                                              "overflow",
                                              "overflow_option",
                                              "api",
                                              "input_price_per_million",
                                              "output_price_per_million",
                                              "requests_per_minute_limit",
                                              "tokens_per_minute_limit",
                                              "idle_power_w",
                                              "powered_off_when_idle",
                                              "grid_region",
                                              "grid_g_co2e_per_kwh",
                                              "staff_hours_per_month",
                                              "staff_rate_per_hour",
                                              "staff_fte",
                                              "staff_salary_per_year",
                                              "licence_per_month",
                                              "licence_per_year",
                                              "licence_per_gpu_per_year",
                                              "support_per_month",
                                              "support_per_year",
                                              "support_per_gpu_per_year",
                                              "insurance_per_year",
                                              "colo_extras_per_month",
                                              "price_basis",
                                              "prefer_fresh_prices"};
const std::vector<std::string> kOptionKinds = {
    "buy", "rent_hourly", "rent_monthly", "rent_spot", "colocation", "blend", "api"};
const std::vector<std::string> kOwnedKinds = {"buy", "colocation", "blend"};
const std::vector<std::string> kPriceBases = {"street", "list", "lowest", "median"};

/// A decimal comma where its meaning is clear ("0,25", "12,5", "1,2345": one comma, digits
/// on both sides, no dot, and not exactly three digits after it) becomes a dot. "1,200" is
/// left alone, and rejected: a thousands separator or a decimal comma, nobody can tell.
std::string decimal_comma_as_dot(const std::string& s) {
  const auto comma = s.find(',');
  if (comma == std::string::npos || s.find(',', comma + 1) != std::string::npos ||
      s.find('.') != std::string::npos) {
    return s;
  }
  const size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const auto digits = [&](size_t from, size_t to) {
    return from < to && std::all_of(s.begin() + static_cast<std::ptrdiff_t>(from),
                                    s.begin() + static_cast<std::ptrdiff_t>(to),
                                    [](unsigned char c) { return std::isdigit(c); });
  };
  const size_t decimals = s.size() - comma - 1;
  if (!digits(sign, comma) || !digits(comma + 1, s.size()) || decimals == 3) return s;
  std::string dotted = s;
  dotted[comma] = '.';
  return dotted;
}

/// Reads one section's keys with type checks, naming file/line/key in every error.
class SectionReader {
 public:
  SectionReader(const pt::ptree& tree, std::string section, Scenario& scenario,
                const std::vector<std::string>& known)
      : tree_(tree), section_(std::move(section)), scenario_(scenario) {
    std::set<std::string> seen;
    for (const auto& [key, child] : tree_) {
      if (!child.empty()) fail(key, "expected a value, found a nested section");
      // INI files are refused by the parser; a JSON object may repeat a key, and only one of
      // the values would count.
      if (!seen.insert(key).second) fail(key, "duplicate key: give each key once");
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        const std::string hint = nearest(key, known);
        fail(key, "unknown key" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      }
      scenario_.given[section_ + "." + key] = true;
    }
  }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    // A missing key has no line: name the section's.
    int line = scenario_.line_of(section_, key);
    if (line == 0) line = scenario_.line_of(section_, "");
    throw ScenarioError(scenario_.file, line, "[" + section_ + "] " + key, problem);
  }

  std::optional<std::string> text(const std::string& key) const {
    const auto child = tree_.get_child_optional(pt::ptree::path_type(key, '\0'));
    if (!child) return std::nullopt;
    return child->data();
  }

  void text(const std::string& key, std::string& out) const {
    if (auto v = text(key)) out = *v;
  }

  /// A value from a fixed set.
  void choice(const std::string& key, std::string& out,
              const std::vector<std::string>& allowed) const {
    auto v = text(key);
    if (!v) return;
    if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : " | ") + a;
      const std::string hint = nearest(*v, allowed);
      fail(key, "expected one of " + list + ", got '" + *v + "'" +
                    (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    out = *v;
  }

  std::optional<double> number(const std::string& key, double min, double max,
                               const std::string& what) const {
    record(key, min, max, false);
    auto v = text(key);
    if (!v) return std::nullopt;
    const std::string& s = *v;
    const std::string dotted = decimal_comma_as_dot(s);
    double value = 0;
    const char* begin = dotted.data();
    const char* end = dotted.data() + dotted.size();
    if (!dotted.empty() && *begin == '+') ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (s.empty() || ec != std::errc() || ptr != end) {
      std::string hint;
      if (s.find(',') != std::string::npos)
        hint = " (use a dot as the decimal separator, no thousands separators)";
      fail(key, "expected " + what + ", got '" + s + "'" + hint);
    }
    if (!std::isfinite(value)) fail(key, "expected a finite number, got '" + s + "'");
    if (value < min || value > max) {
      std::ostringstream range;
      range << "expected " << what << " between " << min << " and " << max << ", got " << s;
      fail(key, range.str());
    }
    return value;
  }

  void number(const std::string& key, double& out, double min, double max,
              const std::string& what) const {
    if (auto v = number(key, min, max, what)) out = *v;
  }

  void number(const std::string& key, std::optional<double>& out, double min, double max,
              const std::string& what) const {
    if (auto v = number(key, min, max, what)) out = *v;
  }

  std::optional<int> integer(const std::string& key, int min, int max) const {
    record(key, min, max, true);
    auto v = number(key, min, max, "a whole number");
    if (!v) return std::nullopt;
    if (std::floor(*v) != *v) fail(key, "expected a whole number, got '" + *text(key) + "'");
    return static_cast<int>(*v);
  }

  void integer(const std::string& key, int& out, int min, int max) const {
    if (auto v = integer(key, min, max)) out = *v;
  }

  void integer(const std::string& key, std::optional<int>& out, int min, int max) const {
    if (auto v = integer(key, min, max)) out = *v;
  }

  /// true | false (also yes | no, 1 | 0).
  std::optional<bool> boolean(const std::string& key) const {
    auto v = text(key);
    if (!v) return std::nullopt;
    if (*v == "true" || *v == "yes" || *v == "1") return true;
    if (*v == "false" || *v == "no" || *v == "0") return false;
    fail(key, "expected true or false, got '" + *v + "'");
  }

 private:
  /// Lists a number key of the section in Scenario::number_keys (the first range read wins).
  void record(const std::string& key, double min, double max, bool whole) const {
    for (const auto& k : scenario_.number_keys) {
      if (k.section == section_ && k.key == key) return;
    }
    scenario_.number_keys.push_back({section_, key, min, max, whole});
  }

  const pt::ptree& tree_;
  std::string section_;
  Scenario& scenario_;
};

/// Maps "section.key" to its line in an INI file (property_tree does not keep lines).
std::map<std::string, int> ini_key_lines(const std::string& content) {
  std::map<std::string, int> lines;
  std::istringstream in(content);
  std::string line, section;
  int number = 0;
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return std::string();
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
  };
  while (std::getline(in, line)) {
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line[0] == '[') {
      const auto close = line.find(']');
      section = trim(line.substr(1, close == std::string::npos ? std::string::npos : close - 1));
      lines[section + "."] = number;
      continue;
    }
    const auto eq = line.find('=');
    if (eq != std::string::npos) lines.emplace(section + "." + trim(line.substr(0, eq)), number);
  }
  return lines;
}

/// Removes inline comments (" ; ..." after a value) that property_tree keeps in values.
void strip_inline_comments(pt::ptree& tree) {
  for (auto& [key, child] : tree) {
    if (child.empty()) {
      std::string value = child.data();
      for (size_t pos = value.find(';'); pos != std::string::npos; pos = value.find(';', pos + 1)) {
        if (pos > 0 && (value[pos - 1] == ' ' || value[pos - 1] == '\t')) {
          value = value.substr(0, pos);
          value.erase(value.find_last_not_of(" \t") + 1);
          break;
        }
      }
      child.data() = value;
    } else {
      strip_inline_comments(child);
    }
  }
}

bool valid_option_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_' || c == '.';
  });
}

/// The cost lines of an option (engine/cost_lines.hpp): amounts in the plan currency.
void read_cost_lines(const SectionReader& r, ScenarioOption& o) {
  constexpr double kMaxMoney = 1e9;
  r.number("staff_hours_per_month", o.staff_hours_per_month, 0, 1e6, "hours of staff time a month");
  r.number("staff_rate_per_hour", o.staff_rate_per_hour, 0, kMaxMoney, "a price per hour");
  r.number("staff_fte", o.staff_fte, 0, 1e4, "a share of full-time employees (0.25 for a quarter)");
  r.number("staff_salary_per_year", o.staff_salary_per_year, 0, kMaxMoney,
           "a yearly cost per full-time employee");
  r.number("licence_per_month", o.licence_per_month, 0, kMaxMoney, "a price per month");
  r.number("licence_per_year", o.licence_per_year, 0, kMaxMoney, "a price per year");
  r.number("licence_per_gpu_per_year", o.licence_per_gpu_per_year, 0, kMaxMoney,
           "a price per device per year");
  r.number("support_per_month", o.support_per_month, 0, kMaxMoney, "a price per month");
  r.number("support_per_year", o.support_per_year, 0, kMaxMoney, "a price per year");
  r.number("support_per_gpu_per_year", o.support_per_gpu_per_year, 0, kMaxMoney,
           "a price per device per year");
  r.number("insurance_per_year", o.insurance_per_year, 0, 1,
           "a fraction of the hardware's purchase value per year (0.01 for 1 %)");
  r.number("colo_extras_per_month", o.colo_extras_per_month, 0, kMaxMoney,
           "a price per unit per month");
}

/// Which kinds each cost line applies to, and the staff pairs entered whole.
template <typename Given>
void check_cost_line_kinds(const SectionReader& r, const ScenarioOption& o,
                           const std::string& base_kind, const Given& given) {
  if (given("insurance_per_year") && base_kind != "buy") {
    r.fail("insurance_per_year",
           "applies to owned hardware only (kind = buy, colocation or blend; this option is " +
               o.kind + ")");
  }
  if (given("colo_extras_per_month") && o.kind != "colocation" && o.hosting != "colocation") {
    r.fail("colo_extras_per_month",
           "applies to colocated hardware only: set kind = colocation (or hosting = colocation "
           "on a buy option)");
  }
  for (const char* key : {"licence_per_gpu_per_year", "support_per_gpu_per_year"}) {
    if (given(key) && o.kind == "api") {
      r.fail(key, "does not apply to kind = api (no devices of its own); use " +
                      std::string(key).substr(0, std::string(key).find("_per_gpu")) +
                      "_per_month or _per_year");
    }
  }
  if (o.staff_hours_per_month.has_value() != o.staff_rate_per_hour.has_value()) {
    r.fail(o.staff_hours_per_month ? "staff_rate_per_hour" : "staff_hours_per_month",
           "missing: staff time is staff_hours_per_month x staff_rate_per_hour; give both");
  }
  if (o.staff_fte.has_value() != o.staff_salary_per_year.has_value()) {
    r.fail(o.staff_fte ? "staff_salary_per_year" : "staff_fte",
           "missing: staff as a share of employees is staff_fte x staff_salary_per_year; give "
           "both");
  }
}

/// Puts the overrides into the parsed tree, creating [scenario], [workload] or [site] when the
/// file has none; [site] is always present so that its number keys are listed.
void apply_overrides(pt::ptree& tree, const std::vector<ScenarioOverride>& overrides,
                     const std::string& file) {
  const auto section_of = [&](const std::string& name) -> pt::ptree* {
    if (auto child = tree.get_child_optional(pt::ptree::path_type(name, '\0'))) return &*child;
    return nullptr;
  };
  if (!section_of("site")) tree.push_back({"site", pt::ptree()});
  for (const auto& o : overrides) {
    pt::ptree* section = section_of(o.section);
    if (!section) {
      if (o.section != "scenario" && o.section != "workload") {
        throw ScenarioError(file, 0, "[" + o.section + "]", "no such section in the file");
      }
      section = &tree.push_back({o.section, pt::ptree()})->second;
    }
    if (o.value) {
      section->put(pt::ptree::path_type(o.key, '\0'), *o.value);
    } else {
      section->erase(o.key);
    }
  }
}

}  // namespace

bool is_scenario_key(const std::string& section, const std::string& key) {
  const std::vector<std::string>* keys = section == "scenario"              ? &kScenarioKeys
                                         : section == "workload"            ? &kWorkloadKeys
                                         : section == "site"                ? &kSiteKeys
                                         : section == "seller"              ? &kSellerKeys
                                         : section.rfind("option:", 0) == 0 ? &kOptionKeys
                                                                            : nullptr;
  return keys && std::find(keys->begin(), keys->end(), key) != keys->end();
}

Scenario parse_scenario(std::istream& in, ScenarioFormat format, const std::string& file,
                        const std::vector<ScenarioOverride>& overrides) {
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ScenarioError(file, 0, "", "cannot read the file");
  // A UTF-8 byte order mark and Windows line endings are harmless: drop them.
  if (content.rfind("\xEF\xBB\xBF", 0) == 0) content.erase(0, 3);
  content.erase(std::remove(content.begin(), content.end(), '\r'), content.end());
  if (content.rfind("\xFF\xFE", 0) == 0 || content.rfind("\xFE\xFF", 0) == 0) {
    throw ScenarioError(file, 0, "", "the file is UTF-16 text; save it as UTF-8");
  }
  if (content.find('\0') != std::string::npos) {
    throw ScenarioError(file, 0, "", "this is not a text file (it contains NUL bytes)");
  }
  // Another 8-bit encoding (Windows-1252, Latin-1): its bytes would reach the workbook and
  // JSON as they are.
  if (const auto bad = first_invalid_utf8(content); bad != std::string_view::npos) {
    const auto line =
        1 + std::count(content.begin(), content.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(content[bad]));
    throw ScenarioError(file, static_cast<int>(line), "",
                        std::string("not UTF-8 text (byte ") + hex + "); save the file as UTF-8");
  }
  if (content.find_first_not_of(" \t\n") == std::string::npos) {
    throw ScenarioError(file, 0, "", "the file is empty; see scenarios/examples/ for the format");
  }

  Scenario s;
  s.file = file;
  pt::ptree tree;
  std::istringstream stream(content);
  try {
    if (format == ScenarioFormat::ini) {
      pt::read_ini(stream, tree);
      s.lines = ini_key_lines(content);
      strip_inline_comments(tree);
    } else {
      pt::read_json(stream, tree);
    }
  } catch (const pt::file_parser_error& e) {
    throw ScenarioError(file, static_cast<int>(e.line()), "", "syntax error: " + e.message());
  }

  // property_tree drops an INI section without keys ("[option:b]" whose lines are all
  // commented out): put it back, so it is reported (a missing kind) rather than ignored.
  if (format == ScenarioFormat::ini) {
    for (const auto& [where, line] : s.lines) {
      if (where.empty() || where.back() != '.') continue;
      const std::string name = where.substr(0, where.size() - 1);
      if (tree.find(name) == tree.not_found()) tree.push_back({name, pt::ptree()});
    }
  }
  apply_overrides(tree, overrides, file);
  const auto is_section_name = [&](const std::string& name) {
    return name == "scenario" || name == "workload" || name == "site" || name == "seller" ||
           name.rfind("option:", 0) == 0 ||
           (format == ScenarioFormat::ini && s.lines.count(name + ".") > 0);
  };

  bool has_scenario = false, has_workload = false;
  std::set<std::string> option_ids, sections;
  for (const auto& [section, child] : tree) {
    const int line = s.line_of(section, "");
    if (!sections.insert(section).second) {
      // INI files are refused by the parser; a JSON object may repeat a section.
      throw ScenarioError(file, line, "[" + section + "]",
                          "duplicate section: give each section once");
    }
    // An empty section ({} in JSON, a header without keys in INI) is read as a section.
    if (child.empty() && format == ScenarioFormat::json && is_section_name(section) &&
        !child.data().empty()) {
      // {"scenario": 5}: the name of a section with a value.
      throw ScenarioError(file, 0, "[" + section + "]",
                          "expected a section (an object of keys), got '" + child.data() + "'");
    }
    if (child.empty() && !(child.data().empty() && is_section_name(section))) {
      throw ScenarioError(file, s.line_of("", section), section,
                          "a key outside any section; keys belong in [scenario], [workload], "
                          "[site] or [option:ID]");
    }
    if (section == "scenario") {
      has_scenario = true;
      SectionReader r(child, section, s, kScenarioKeys);
      r.text("name", s.name);
      r.choice("currency", s.currency, {"EUR", "USD"});
      r.text("start", s.start);
      r.integer("horizon_months", s.horizon_months, 1, 600);
      r.number("discount_rate", s.discount_rate, -0.99, 1.0, "a fraction per year (0.08 for 8 %)");
      r.text("as_of", s.as_of);
      r.text("customer", s.customer);
      r.text("quote_id", s.quote_id);
      r.choice("paper", s.paper, {"a4", "letter"});
      r.text("proposed", s.proposed);
      r.integer("valid_days", s.valid_days, 1, 3650);
      r.integer("max_price_age_days", s.max_price_age_days, 1, 36500);
      r.text("baseline", s.baseline);
      r.number("vat_rate", s.vat_rate, 0, 1, "a fraction (0.19 for 19 %)");
      if (auto v = r.boolean("vat_reclaimable")) s.vat_reclaimable = *v;
      r.number("rent_trend_per_year", s.rent_trend_per_year, -0.99, 10,
               "a fraction per year (-0.15 for -15 %)");
      r.number("api_price_trend_per_year", s.api_price_trend_per_year, -0.99, 10,
               "a fraction per year (-0.3 for -30 %)");
      r.choice("hours_per_month_convention", s.hours_per_month_convention,
               {"730", "720", "calendar"});
      r.integer("useful_life_months", s.useful_life_months, 1, 600);
      r.choice("price_basis", s.price_basis, kPriceBases);
      if (auto v = r.boolean("prefer_fresh_prices")) s.prefer_fresh_prices = *v;
      if (!s.as_of.empty() && !parse_date(s.as_of)) {
        r.fail("as_of",
               "expected a date YYYY-MM-DD, got '" + s.as_of + "' (a real date, years 1900-2999)");
      }
      if (!s.start.empty() && !parse_month(s.start)) {
        r.fail("start",
               "expected a month YYYY-MM, got '" + s.start + "' (a real month, years 1900-2999)");
      }
    } else if (section == "workload") {
      has_workload = true;
      SectionReader r(child, section, s, kWorkloadKeys);
      r.text("model", s.model);
      r.text("quant", s.quant);
      r.integer("context_tokens", s.context_tokens, 1, 10'000'000);
      r.integer("concurrent_streams", s.concurrent_streams, 1, 100'000);
      r.number("hours_per_day", s.hours_per_day, 0, 24, "hours per day");
      r.number("days_per_month", s.days_per_month, 0, 31, "days per month");
      const std::vector<std::string> cache_types = {"f32",  "f16",    "bf16", "q8_0", "q4_0",
                                                    "q4_1", "iq4_nl", "q5_0", "q5_1"};
      r.choice("kv_cache", s.kv_cache, cache_types);
      s.cache_type_k = s.cache_type_v = s.kv_cache;
      r.choice("cache_type_k", s.cache_type_k, cache_types);
      r.choice("cache_type_v", s.cache_type_v, cache_types);
      r.number("growth_per_month", s.growth_per_month, -0.99, 1,
               "a fraction per month (0.03 for +3 %)");
      r.number("tokens_per_day", s.tokens_per_day, 0, 1e15, "tokens per day");
      r.number("requests_per_day", s.requests_per_day, 0, 1e12, "requests per day");
      // A vanishing demand (1e-300 tokens a day) is a typo: it would put costs of 1e300 per
      // million tokens in every report.
      if (s.tokens_per_day && *s.tokens_per_day > 0 && *s.tokens_per_day < 1) {
        r.fail("tokens_per_day",
               "expected 0 or at least 1 token per day, got " + *r.text("tokens_per_day"));
      }
      if (s.requests_per_day && *s.requests_per_day > 0 && *s.requests_per_day < 0.001) {
        r.fail("requests_per_day",
               "expected 0 or at least 0.001 requests per day, got " + *r.text("requests_per_day"));
      }
      r.number("prompt_tokens_per_request", s.prompt_tokens_per_request, 0, 1e7,
               "prompt (input) tokens per request");
      r.number("output_tokens_per_request", s.output_tokens_per_request, 1, 1e7,
               "generated (output) tokens per request");
      r.number("input_tokens_per_output_token", s.input_tokens_per_output_token, 0, 1e6,
               "prompt tokens per generated token (4 for 800 in, 200 out)");
      const auto given_here = [&](const char* key) {
        return s.given.count(std::string("workload.") + key) > 0;
      };
      if (s.requests_per_day && s.tokens_per_day) {
        r.fail("requests_per_day",
               "give either requests_per_day (with prompt_tokens_per_request and "
               "output_tokens_per_request) or tokens_per_day, not both");
      }
      if (s.requests_per_day && (!s.prompt_tokens_per_request || !s.output_tokens_per_request)) {
        r.fail("requests_per_day",
               "needs prompt_tokens_per_request and output_tokens_per_request (the tokens of "
               "one request)");
      }
      if (given_here("input_tokens_per_output_token") &&
          (s.prompt_tokens_per_request || s.output_tokens_per_request)) {
        r.fail("input_tokens_per_output_token",
               "the token mix is given twice: drop it, or drop prompt_tokens_per_request and "
               "output_tokens_per_request");
      }
      if (s.prompt_tokens_per_request.has_value() != s.output_tokens_per_request.has_value()) {
        r.fail(
            s.prompt_tokens_per_request ? "output_tokens_per_request" : "prompt_tokens_per_request",
            "missing: the token mix needs both prompt_tokens_per_request and "
            "output_tokens_per_request");
      }
      r.number("users", s.users, 1, 1e9, "a number of users");
      r.choice("overflow", s.overflow, {"buy", "rent"});
      r.text("overflow_option", s.overflow_option);
      r.choice("availability", s.availability, {"hours_of_use", "24x7"});
    } else if (section == "site") {
      SectionReader r(child, section, s, kSiteKeys);
      r.number("tariff_per_kwh", s.tariff_per_kwh, 0, 10, "a price per kWh");
      r.text("tariff", s.tariff);
      r.number("pue", s.pue, 1, 3, "a PUE (facility power / IT power)");
      r.number("tariff_trend_per_year", s.tariff_trend_per_year, -0.99, 10,
               "a fraction per year (0.05 for +5 %)");
      r.text("grid_region", s.grid_region);
      r.number("grid_g_co2e_per_kwh", s.grid_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      if (auto v = r.boolean("green_power")) s.green_power = *v;
      r.number("green_power_g_co2e_per_kwh", s.green_power_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      if (!s.grid_region.empty() && s.grid_g_co2e_per_kwh) {
        r.fail("grid_g_co2e_per_kwh", "give either grid_region or grid_g_co2e_per_kwh, not both");
      }
      if (s.green_power_g_co2e_per_kwh && !s.green_power) {
        r.fail("green_power_g_co2e_per_kwh", "applies with green_power = true only");
      }
    } else if (section == "seller") {
      SectionReader r(child, section, s, kSellerKeys);
      r.text("company", s.seller_company);
      r.text("contact", s.seller_contact);
      r.text("logo", s.seller_logo);
      r.text("terms", s.seller_terms);
    } else if (section.rfind("option:", 0) == 0) {
      ScenarioOption o;
      o.id = section.substr(7);
      if (!valid_option_id(o.id)) {
        throw ScenarioError(file, line, "[" + section + "]",
                            "option ids use letters, digits, '-', '_' or '.' (at most 64)");
      }
      if (!option_ids.insert(o.id).second) {
        throw ScenarioError(file, line, "[" + section + "]", "duplicate option id");
      }
      SectionReader r(child, section, s, kOptionKeys);
      r.text("label", o.label);
      if (s.given.count(section + ".label") &&
          o.label.find_first_not_of(" \t") == std::string::npos) {
        r.fail("label", "empty: give the name a person reads for this option, or leave label out");
      }
      r.choice("kind", o.kind, kOptionKinds);
      r.text("gpu", o.gpu);
      if (o.kind.empty()) {
        r.fail("kind",
               "missing: set kind = buy | rent_hourly | rent_monthly | rent_spot | colocation | "
               "blend | api");
      }
      if (o.kind == "api") {
        if (!o.gpu.empty()) r.fail("gpu", "an api option has no devices (kind = api)");
      } else if (o.gpu.empty()) {
        r.fail("gpu", "missing: set gpu to a catalog device id (gputco catalog list gpus)");
      }
      if (auto c = r.integer("count", 1, 4096)) o.count = *c;
      r.choice("condition", o.condition, {"new", "used"});
      constexpr double kMaxMoney = 1e9;
      r.number("price_per_gpu", o.price_per_gpu, 0, kMaxMoney, "a price");
      r.number("host_cost", o.host_cost, 0, kMaxMoney, "a price");
      r.number("host_power_w", o.host_power_w, 0, 1e6, "a power in W");
      r.number("residual_fraction", o.residual_fraction, 0, 1, "a fraction of the purchase price");
      r.number("maintenance_per_year", o.maintenance_per_year, 0, 1,
               "a fraction of capex per year (0.05 for 5 %)");
      r.number("rate_per_gpu_hour", o.rate_per_gpu_hour, 0, 1e4, "a price per GPU-hour");
      r.number("price_per_month", o.price_per_month, 0, kMaxMoney, "a price per month");
      r.number("setup_fee", o.setup_fee, 0, kMaxMoney, "a price");
      r.text("provider", o.provider);
      r.choice("split", o.split, {"layer", "tensor"});
      r.choice("backend", o.backend, {"cuda", "metal", "rocm", "vulkan", "sycl"});
      r.choice("term", o.term, {"on_demand", "spot", "reserved_1y", "reserved_3y"});
      r.number("goodput", o.goodput, 0.01, 1, "a fraction of billed hours (0.9 for 90 %)");
      r.choice("billing", o.billing, {"always_on", "autoscaled"});
      r.integer("min_instances", o.min_instances, 0, 4096);
      r.choice("billing_granularity", o.billing_granularity, {"second", "minute", "hour"});
      r.integer("notice_months", o.notice_months, 0, 120);
      r.integer("warranty_months", o.warranty_months, 0, 600);
      r.number("annual_failure_rate", o.annual_failure_rate, 0, 1,
               "a fraction of devices per year (0.05 for 5 %)");
      r.choice("hosting", o.hosting, {"on_site", "colocation"});
      r.number("colo_per_kw_month", o.colo_per_kw_month, 0, kMaxMoney, "a price per kW per month");
      r.number("colo_per_rack_unit_month", o.colo_per_rack_unit_month, 0, kMaxMoney,
               "a price per rack unit per month");
      r.number("rack_units", o.rack_units, 0, 1000, "rack units");
      r.number("contracted_kw", o.contracted_kw, 0, 1e5, "a power in kW");
      r.number("kw_step", o.kw_step, 0.01, 1000, "a power step in kW");
      if (auto v = r.boolean("power_metered")) o.power_metered = *v;
      r.number("pue", o.pue, 1, 3, "a PUE (facility power / IT power)");
      r.number("tariff_per_kwh", o.tariff_per_kwh, 0, 10, "a price per kWh");
      r.choice("financing", o.financing, {"cash", "loan", "lease"});
      r.number("down_payment", o.down_payment, 0, 1, "a fraction of the purchase (0.2 for 20 %)");
      r.number("loan_rate", o.loan_rate, 0, 1, "a fraction per year (0.06 for 6 %)");
      r.integer("loan_term_months", o.loan_term_months, 1, 600);
      r.number("lease_rate_per_month", o.lease_rate_per_month, 0, 1,
               "a fraction of the hardware price per month (0.03 for 3 %)");
      r.integer("lease_term_months", o.lease_term_months, 1, 600);
      r.choice("overflow", o.overflow, {"buy", "rent"});
      r.text("overflow_option", o.overflow_option);
      r.text("api", o.api);
      r.number("input_price_per_million", o.input_price_per_million, 0, 1e6,
               "a price per million input tokens");
      r.number("output_price_per_million", o.output_price_per_million, 0, 1e6,
               "a price per million output tokens");
      r.number("requests_per_minute_limit", o.requests_per_minute_limit, 1e-6, 1e12,
               "requests per minute");
      r.number("tokens_per_minute_limit", o.tokens_per_minute_limit, 1e-6, 1e15,
               "tokens per minute");
      r.number("idle_power_w", o.idle_power_w, 0, 1e6, "a power in W");
      if (auto v = r.boolean("powered_off_when_idle")) o.powered_off_when_idle = *v;
      r.text("grid_region", o.grid_region);
      r.number("grid_g_co2e_per_kwh", o.grid_g_co2e_per_kwh, 0, 5000,
               "a carbon intensity in g CO2e per kWh");
      read_cost_lines(r, o);
      r.choice("price_basis", o.price_basis, kPriceBases);
      if (auto v = r.boolean("prefer_fresh_prices")) o.prefer_fresh_prices = *v;
      // Not `section` itself: clang before 16 cannot capture a structured binding.
      const std::string given_prefix = section + ".";
      const auto given = [&](const std::string& key) { return s.given.count(given_prefix + key); };
      // colocation and blend are kinds of buy, rent_spot one of rent_hourly: keys follow the
      // kind they are variants of.
      const std::string base_kind = o.kind == "colocation" || o.kind == "blend" ? "buy"
                                    : o.kind == "rent_spot"                     ? "rent_hourly"
                                                                                : o.kind;
      const auto only_for = [&](const std::string& key, const std::string& kind) {
        if (given(key) && base_kind != kind) {
          r.fail(key, "applies to kind = " + kind + " only (this option is " + o.kind + ")");
        }
      };
      for (const char* key : {"condition",
                              "price_per_gpu",
                              "host_cost",
                              "host_power_w",
                              "residual_fraction",
                              "maintenance_per_year",
                              "warranty_months",
                              "annual_failure_rate",
                              "financing",
                              "down_payment",
                              "loan_rate",
                              "loan_term_months",
                              "lease_rate_per_month",
                              "lease_term_months",
                              "overflow",
                              "overflow_option",
                              "tariff_per_kwh",
                              "hosting",
                              "idle_power_w",
                              "powered_off_when_idle"}) {
        only_for(key, "buy");
      }
      for (const char* key : {"api", "input_price_per_million", "output_price_per_million",
                              "requests_per_minute_limit", "tokens_per_minute_limit"}) {
        only_for(key, "api");
      }
      // The PUE of rented capacity is for the energy estimate only (emissions).
      if (given("pue") && base_kind != "buy" && base_kind != "rent_hourly" &&
          base_kind != "rent_monthly") {
        r.fail("pue", "applies to options that run devices (not kind = " + o.kind + ")");
      }
      for (const char* key : {"grid_region", "grid_g_co2e_per_kwh"}) {
        if (given(key) && o.kind == "api") {
          r.fail(key, "does not apply to kind = api (the provider's energy is not published)");
        }
      }
      for (const char* key : {"count", "split", "backend"}) {
        if (given(key) && o.kind == "api") {
          r.fail(key, "does not apply to kind = api (the provider runs the model: no devices)");
        }
      }
      if (!o.grid_region.empty() && o.grid_g_co2e_per_kwh) {
        r.fail("grid_g_co2e_per_kwh", "give either grid_region or grid_g_co2e_per_kwh, not both");
      }
      if (o.kind == "api" && o.api.empty() &&
          (!o.input_price_per_million || !o.output_price_per_million)) {
        r.fail("api",
               "missing: set api to a catalog API price id (gputco catalog list apis), or both "
               "input_price_per_million and output_price_per_million");
      }
      if (given("hosting") && o.kind == "colocation") {
        r.fail("hosting", "kind = colocation is hosting = colocation already");
      }
      for (const char* key : {"colo_per_kw_month", "colo_per_rack_unit_month", "rack_units",
                              "contracted_kw", "kw_step", "power_metered"}) {
        if (given(key) && o.kind != "colocation" && o.hosting != "colocation") {
          r.fail(key,
                 "applies to colocated hardware only: set kind = colocation (or hosting = "
                 "colocation on a buy option)");
        }
      }
      only_for("rate_per_gpu_hour", "rent_hourly");
      only_for("term", "rent_hourly");
      if (given("term") && o.kind == "rent_spot") {
        r.fail("term", "kind = rent_spot is term = spot; use kind = rent_hourly to choose a term");
      }
      only_for("goodput", "rent_hourly");
      if (given("goodput") && o.kind == "rent_hourly" && o.term != "spot") {
        r.fail("goodput", "applies to spot rentals only: set term = spot or kind = rent_spot");
      }
      for (const char* key : {"billing", "min_instances", "billing_granularity"}) {
        only_for(key, "rent_hourly");
        if (given(key) && (o.term == "reserved_1y" || o.term == "reserved_3y")) {
          r.fail(key,
                 "applies to on_demand and spot rentals (a reserved term is billed for "
                 "every hour of the month)");
        }
      }
      for (const char* key : {"min_instances", "billing_granularity"}) {
        if (given(key) && o.billing != "autoscaled") {
          r.fail(key,
                 "applies to billing = autoscaled only (always_on bills the instances of "
                 "the peak for every hour of availability)");
        }
      }
      only_for("price_per_month", "rent_monthly");
      only_for("setup_fee", "rent_monthly");
      only_for("notice_months", "rent_monthly");
      for (const char* key : {"down_payment", "loan_rate", "loan_term_months"}) {
        if (given(key) && o.financing != "loan") r.fail(key, "applies to financing = loan only");
      }
      for (const char* key : {"lease_rate_per_month", "lease_term_months"}) {
        if (given(key) && o.financing != "lease") r.fail(key, "applies to financing = lease only");
      }
      if (o.financing == "lease" && !o.lease_rate_per_month) {
        r.fail("financing",
               "a lease needs lease_rate_per_month (the monthly fee as a fraction "
               "of the hardware price)");
      }
      check_cost_line_kinds(r, o, base_kind, given);
      if (o.kind == "blend" && o.overflow == "buy") {
        r.fail("overflow", "a blend rents its overflow (own the base load, rent the peaks)");
      }
      s.options.push_back(std::move(o));
    } else {
      // "[Option:a]" or "[options:a]": suggest [option:a], not [option:Option:a].
      const auto colon = section.find(':');
      const std::string id = colon == std::string::npos ? section : section.substr(colon + 1);
      const std::string hint =
          nearest(section, {"scenario", "workload", "site", "seller", "option:" + id});
      throw ScenarioError(file, line, "[" + section + "]",
                          "unknown section; expected [scenario], [workload], [site], [seller] or "
                          "[option:ID]" +
                              (hint.empty() ? "" : "; did you mean [" + hint + "]?"));
    }
  }

  if (!has_scenario) throw ScenarioError(file, 0, "[scenario]", "missing section");
  if (!has_workload) throw ScenarioError(file, 0, "[workload]", "missing section");
  if (s.as_of.empty()) {
    throw ScenarioError(file, s.line_of("scenario", ""), "[scenario] as_of",
                        "missing: prices are taken as of this date (YYYY-MM-DD)");
  }
  if (s.start.empty()) s.start = s.as_of.substr(0, 7);
  if (s.name.empty()) s.name = file;
  if (s.model.empty()) {
    throw ScenarioError(file, s.line_of("workload", ""), "[workload] model",
                        "missing: set model to a catalog model id (gputco catalog list models)");
  }
  // A model file's own format is its default quant (resolve); a catalog model needs one.
  const std::string model_path =
      (std::filesystem::path(file).parent_path() / std::filesystem::path(s.model)).string();
  if (s.quant.empty() && !is_model_path(model_path) && !is_model_path(s.model)) {
    throw ScenarioError(file, s.line_of("workload", ""), "[workload] quant",
                        "missing: set quant, e.g. Q4_K_M (gputco catalog list quants)");
  }
  if (s.options.empty()) {
    throw ScenarioError(file, 0, "[option:ID]", "no options: add at least one [option:ID] section");
  }
  // A demand needs hours to be served in: at 0 hours a day every option would serve it at no
  // cost (rentals bill hours x load = 0) and be recommended for it.
  const bool demand = (s.tokens_per_day && *s.tokens_per_day > 0) ||
                      (s.requests_per_day && *s.requests_per_day > 0);
  const bool days_of_use = !s.given.count("workload.days_per_month") || s.days_per_month > 0;
  if (demand && days_of_use && s.hours_per_day <= 0) {
    throw ScenarioError(file, s.line_of("workload", "hours_per_day"), "[workload] hours_per_day",
                        "0 hours of use a day cannot serve the demand of " +
                            std::string(s.tokens_per_day ? "tokens_per_day" : "requests_per_day") +
                            "; give the hours the demand is served in");
  }
  // Growth compounds over the horizon: the last month's demand must stay a number of units
  // one can plan (the engine's limit, named here with the key and its line).
  if (const double factor = std::pow(1.0 + s.growth_per_month, s.horizon_months);
      !std::isfinite(factor) || factor > 1e6) {
    std::ostringstream problem;
    problem << "growth of " << s.growth_per_month
            << " a month over horizon_months = " << s.horizon_months
            << " multiplies the demand by more than a million; lower one of them";
    throw ScenarioError(file, s.line_of("workload", "growth_per_month"),
                        "[workload] growth_per_month", problem.str());
  }
  return s;
}

Scenario load_scenario(const std::string& path, const std::vector<ScenarioOverride>& overrides) {
  const auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  ScenarioFormat format;
  if (ext == "ini") {
    format = ScenarioFormat::ini;
  } else if (ext == "json") {
    format = ScenarioFormat::json;
  } else {
    throw ScenarioError(path, 0, "", "unknown scenario format: expected a .ini or .json file");
  }
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw ScenarioError(path, 0, "", "this is a directory, not a scenario file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "", "cannot open the file (does it exist?)");
  try {
    return parse_scenario(in, format, path, overrides);
  } catch (const std::ios_base::failure& e) {
    // The stream buffer throws on a read error (a special file, an I/O error).
    throw ScenarioError(path, 0, "", std::string("cannot read the file: ") + e.what());
  }
}

}  // namespace gputco
