// gputco catalog list gpus|devices|models|quants|systems|prices|rentals|tariffs|apis|carbon
//   [--as-of DATE] [--max-age DAYS] [filters] [--format text|json|csv|ids] [--catalog DB]
//
// Every listing is built once as rows (a JSON object with every field, and the text line of
// the terminal table) and printed in the format asked: the text table, JSON, CSV (the JSON
// keys as columns) or the ids alone (for shell completion).
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

using ordered = nlohmann::ordered_json;

/// Without --as-of, lists every observation up to the end of the calendar (no wall clock).
constexpr const char* kLatest = "2999-12-31";

/// Age of an observation at the listing date, when one was given (--as-of).
struct Staleness {
  std::string as_of;  // "" when no --as-of: no age, no flag
  int max_age_days = 90;

  std::optional<int> age(const std::string& observed_on) const {
    // No --as-of, or the empty row that names a listing's columns: no age.
    if (as_of.empty() || observed_on.empty()) return std::nullopt;
    return days_between(observed_on, as_of);
  }
  std::string age_text(const std::string& observed_on) const {
    auto a = age(observed_on);
    return a ? std::to_string(*a) : "-";
  }
  std::string stale_text(const std::string& observed_on) const {
    auto a = age(observed_on);
    if (!a) return "-";
    return *a > max_age_days ? "STALE" : "ok";
  }
  void add_to(ordered& row, const std::string& observed_on) const {
    auto a = age(observed_on);
    row["age_days"] = a ? ordered(*a) : ordered(nullptr);
    row["stale"] = a ? ordered(*a > max_age_days) : ordered(nullptr);
  }
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// The filters of `catalog list`; each one not given is empty. Text filters compare without
/// regard to case; amounts are in each row's own currency.
struct ListFilters {
  std::string vendor;    ///< nvidia | amd | intel | apple (the device's)
  std::string provider;  ///< a rental or API provider
  std::string region;    ///< a price's, offer's or tariff's region
  std::string term;      ///< a rental term: on_demand | spot | reserved_1y | reserved_3y
  std::optional<double> min_memory_gb;  ///< the device's nameplate memory, GB
  std::optional<double> max_price;      ///< the row's price (see the option's help)

  static bool matches(const std::string& wanted, const std::string& value) {
    return wanted.empty() || lower(wanted) == lower(value);
  }
  /// The device filters (vendor, memory) on a device id; a row whose id is not a catalog
  /// device passes only when neither is given.
  bool device_matches(const std::map<std::string, Device>& devices, const std::string& id) const {
    if (vendor.empty() && !min_memory_gb) return true;
    const auto it = devices.find(id);
    if (it == devices.end()) return false;
    return matches(vendor, to_string(it->second.vendor)) &&
           (!min_memory_gb || it->second.memory_nameplate_gb >= *min_memory_gb);
  }
  bool price_matches(double amount) const { return !max_price || amount <= *max_price; }
};

/// One listing: the text table's header and, per row, every field (JSON, CSV) and its line.
struct Listing {
  std::string text_header;
  std::vector<std::string> keys;  ///< the fields of a row, in order: the CSV header
  std::vector<ordered> rows;
  std::vector<std::string> lines;

  void add(ordered row, std::string line) {
    rows.push_back(std::move(row));
    lines.push_back(std::move(line));
  }
};

/// The keys of a row object, in order (the CSV columns of an empty listing too).
std::vector<std::string> keys_of(const ordered& row) {
  std::vector<std::string> keys;
  for (const auto& item : row.items()) keys.push_back(item.key());
  return keys;
}

/// An optional figure (not published): the number, or "-".
std::string or_dash(const std::optional<double>& x, const char* format) {
  return x ? fmt::format(fmt::runtime(format), *x) : std::string("-");
}

ordered or_null(const std::optional<double>& x) {
  return x ? ordered(*x) : ordered(nullptr);
}

/// A figure where 0 stands for "none or not published" (Device's compute peaks and board
/// power): null in JSON, an empty CSV field, so that no one reads 0 TFLOPS as a measurement.
ordered positive_or_null(double x) {
  return x > 0 ? ordered(x) : ordered(nullptr);
}
/// A count where 0 stands for "not given or not applicable" (ModelArch: no KV heads of an MLA
/// model, no experts of a dense one, no sliding window): null, an empty CSV field, "-" as text.
ordered positive_or_null(int x) {
  return x > 0 ? ordered(x) : ordered(nullptr);
}
std::string count_or_dash(int x) {
  return x > 0 ? std::to_string(x) : std::string("-");
}

std::map<std::string, Device> devices_by_id(const Catalog& c) {
  std::map<std::string, Device> out;
  for (auto& d : c.devices()) out.emplace(d.id, std::move(d));
  return out;
}

Listing list_gpus(const Catalog& c, const ListFilters& f) {
  const auto json_of = [](const Device& d) -> ordered {
    return {{"id", d.id},
            {"name", d.name},
            {"vendor", to_string(d.vendor)},
            {"kind", to_string(d.kind)},
            {"memory_nameplate_gb", d.memory_nameplate_gb},
            {"memory_type", d.memory_type},
            {"bandwidth_gbps", d.bandwidth_gbps},
            {"board_power_w", positive_or_null(d.board_power_w)},
            {"fp16_tflops", positive_or_null(d.fp16_tflops)},
            {"fp8_tflops", positive_or_null(d.fp8_tflops)},
            {"fp4_tflops", positive_or_null(d.fp4_tflops)},
            {"nvlink_gbps", positive_or_null(d.nvlink_gbps)}};
  };
  const auto tflops = [](double x) { return x > 0 ? fmt::format("{}", x) : std::string("-"); };
  Listing l;
  l.keys = keys_of(json_of(Device{}));
  l.text_header =
      fmt::format("{:<24} {:<34} {:<7} {:<12} {:>6} {:>9} {:>7} {:>8} {:>8} {:>8}\n", "id", "name",
                  "vendor", "kind", "GB", "GB/s", "W", "TFLOPS16", "TFLOPS8", "TFLOPS4");
  const auto devices = devices_by_id(c);
  for (const auto& d : c.devices()) {
    if (!f.device_matches(devices, d.id)) continue;
    l.add(json_of(d),
          fmt::format("{:<24} {:<34} {:<7} {:<12} {:>6} {:>9} {:>7} {:>8} {:>8} {:>8}\n", d.id,
                      d.name, to_string(d.vendor), to_string(d.kind), d.memory_nameplate_gb,
                      d.bandwidth_gbps, d.board_power_w, tflops(d.fp16_tflops),
                      tflops(d.fp8_tflops), tflops(d.fp4_tflops)));
  }
  return l;
}

Listing list_models(const Catalog& c, const ListFilters&) {
  const auto json_of = [](const ModelArch& m) -> ordered {
    return {{"id", m.id},
            {"name", m.name},
            {"hf_repo", m.hf_repo},
            {"params_b", m.params_b},
            {"active_params_b", m.active_params_b},
            {"layers", m.layers},
            {"heads", m.heads},
            {"kv_heads", positive_or_null(m.kv_heads)},
            {"head_dim", positive_or_null(m.head_dim)},
            {"experts", positive_or_null(m.experts)},
            {"experts_active", positive_or_null(m.experts_active)},
            {"swa_window", positive_or_null(m.swa_window)},
            {"swa_layers", positive_or_null(m.swa_layers)},
            {"mla_kv_lora_rank", positive_or_null(m.mla_kv_lora_rank)},
            {"max_context", m.max_context},
            {"max_context_scaled", positive_or_null(m.max_context_scaled)},
            {"layers_without_kv", m.layers_without_kv},
            {"recurrent_layers", m.recurrent_layers}};
  };
  Listing l;
  l.keys = keys_of(json_of(ModelArch{}));
  l.text_header = fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}  {}\n", "id",
                              "name", "params_b", "active_b", "layers", "heads", "kv_heads",
                              "head_dim", "max_ctx", "hf_repo (alias)");
  for (const auto& m : c.models()) {
    l.add(json_of(m), fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}  {}\n",
                                  m.id, m.name, m.params_b, m.active_params_b, m.layers, m.heads,
                                  count_or_dash(m.kv_heads), count_or_dash(m.head_dim),
                                  m.max_context, m.hf_repo.empty() ? "-" : m.hf_repo));
  }
  return l;
}

Listing list_quants(const Catalog& c, const ListFilters&) {
  const auto json_of = [](const Quant& q) -> ordered {
    return {{"id", q.id}, {"bits_per_weight", q.bits_per_weight}, {"kind", q.kind}};
  };
  Listing l;
  l.keys = keys_of(json_of(Quant{}));
  l.text_header = fmt::format("{:<10} {:>15} {:<6}\n", "quant", "bits_per_weight", "kind");
  for (const auto& q : c.quants()) {
    l.add(json_of(q), fmt::format("{:<10} {:>15} {:<6}\n", q.id, q.bits_per_weight, q.kind));
  }
  return l;
}

Listing list_systems(const Catalog& c, const ListFilters&) {
  const auto json_of = [](const System& s) -> ordered {
    return {{"id", s.id},
            {"name", s.name},
            {"kind", s.kind},
            {"device_id", s.device_id},
            {"device_count", s.device_count},
            {"host", s.host},
            {"host_power_w", s.host_power_w},
            {"nvlink_domain_gpus", positive_or_null(s.nvlink_domain_gpus)},
            {"interconnect", s.interconnect},
            {"observed_on", s.provenance.observed_on},
            {"source", s.provenance.source}};
  };
  Listing l;
  l.keys = keys_of(json_of(System{}));
  l.text_header = fmt::format("{:<18} {:<40} {:<11} {:<10} {:>5} {:>7} {:>6} {}\n", "id", "name",
                              "kind", "device", "count", "host W", "NVLink", "interconnect");
  for (const auto& s : c.systems()) {
    const std::string domain =
        s.nvlink_domain_gpus > 0 ? std::to_string(s.nvlink_domain_gpus) : "-";
    l.add(json_of(s), fmt::format("{:<18} {:<40} {:<11} {:<10} {:>5} {:>7} {:>6} {}\n", s.id,
                                  s.name, s.kind, s.device_id, s.device_count, s.host_power_w,
                                  domain, s.interconnect.empty() ? "-" : s.interconnect));
  }
  return l;
}

Listing list_prices(const Catalog& c, const std::string& as_of, const Staleness& age,
                    const ListFilters& f) {
  const auto json_of = [&](const PriceObservation& p) {
    ordered row = {{"item_id", p.item_id},
                   {"condition", p.condition},
                   {"amount", p.amount},
                   {"currency", p.currency},
                   {"region", p.region},
                   {"seller", p.seller},
                   {"observed_on", p.provenance.observed_on},
                   {"source", p.provenance.source},
                   {"book", p.provenance.book}};
    age.add_to(row, p.provenance.observed_on);
    return row;
  };
  Listing l;
  l.keys = keys_of(json_of(PriceObservation{}));
  l.text_header =
      fmt::format("{:<24} {:<9} {:>10} {:<4} {:<11} {:>5} {:<5} {:<10} {}\n", "device", "condition",
                  "amount", "cur", "observed", "age", "stale", "book", "source");
  const auto devices = devices_by_id(c);
  for (const auto& p : c.prices(as_of)) {
    if (!f.device_matches(devices, p.item_id) || !f.matches(f.region, p.region) ||
        !f.price_matches(p.amount)) {
      continue;
    }
    l.add(json_of(p), fmt::format("{:<24} {:<9} {:>10.2f} {:<4} {:<11} {:>5} {:<5} {:<10} {}\n",
                                  p.item_id, p.condition, p.amount, p.currency,
                                  p.provenance.observed_on, age.age_text(p.provenance.observed_on),
                                  age.stale_text(p.provenance.observed_on), p.provenance.book,
                                  p.provenance.source));
  }
  return l;
}

Listing list_rentals(const Catalog& c, const std::string& as_of, const Staleness& age,
                     const ListFilters& f) {
  const auto json_of = [&](const RentalOffer& r) {
    ordered row = {{"provider", r.provider},
                   {"sku", r.sku},
                   {"device_id", r.device_id},
                   {"devices_per_instance", r.devices_per_instance},
                   {"billing", r.billing},
                   {"term", r.term},
                   {"amount", r.amount},
                   {"amount_per_device", r.amount_per_device()},
                   {"setup_fee", r.setup_fee},
                   {"currency", r.currency},
                   {"region", r.region},
                   {"observed_on", r.provenance.observed_on},
                   {"source", r.provenance.source},
                   {"book", r.provenance.book}};
    age.add_to(row, r.provenance.observed_on);
    return row;
  };
  Listing l;
  l.keys = keys_of(json_of(RentalOffer{}));
  l.text_header =
      fmt::format("{:<22} {:<14} {:<30} {:<8} {:<12} {:>10} {:<4} {:<11} {:>5} {:<5} {}\n",
                  "device", "provider", "sku", "billing", "term", "per device", "cur", "observed",
                  "age", "stale", "book");
  const auto devices = devices_by_id(c);
  for (const auto& r : c.rental_offers(as_of)) {
    if (!f.device_matches(devices, r.device_id) || !f.matches(f.provider, r.provider) ||
        !f.matches(f.region, r.region) || !f.matches(f.term, r.term) ||
        !f.price_matches(r.amount_per_device())) {
      continue;
    }
    l.add(json_of(r),
          fmt::format("{:<22} {:<14} {:<30} {:<8} {:<12} {:>10.3f} {:<4} {:<11} {:>5} {:<5} {}\n",
                      r.device_id, r.provider, r.sku, r.billing, r.term, r.amount_per_device(),
                      r.currency, r.provenance.observed_on, age.age_text(r.provenance.observed_on),
                      age.stale_text(r.provenance.observed_on), r.provenance.book));
  }
  return l;
}

Listing list_tariffs(const Catalog& c, const std::string& as_of, const Staleness& age,
                     const ListFilters& f) {
  const auto json_of = [&](const Tariff& t) {
    ordered row = {{"id", t.id},
                   {"region", t.region},
                   {"amount_per_kwh", t.amount_per_kwh},
                   {"currency", t.currency},
                   {"note", t.note},
                   {"observed_on", t.provenance.observed_on},
                   {"source", t.provenance.source}};
    age.add_to(row, t.provenance.observed_on);
    return row;
  };
  Listing l;
  l.keys = keys_of(json_of(Tariff{}));
  l.text_header = fmt::format("{:<22} {:<24} {:>8} {:<4} {:<11} {:>5} {:<5} {}\n", "id", "region",
                              "per kWh", "cur", "observed", "age", "stale", "source");
  for (const auto& t : c.tariffs(as_of)) {
    if (!f.matches(f.region, t.region) || !f.price_matches(t.amount_per_kwh)) continue;
    l.add(json_of(t), fmt::format("{:<22} {:<24} {:>8.4f} {:<4} {:<11} {:>5} {:<5} {}\n", t.id,
                                  t.region, t.amount_per_kwh, t.currency, t.provenance.observed_on,
                                  age.age_text(t.provenance.observed_on),
                                  age.stale_text(t.provenance.observed_on), t.provenance.source));
  }
  return l;
}

Listing list_apis(const Catalog& c, const std::string& as_of, const Staleness& age,
                  const ListFilters& f) {
  const auto json_of = [&](const ApiPrice& a) {
    ordered row = {{"id", a.id},
                   {"provider", a.provider},
                   {"api_model", a.api_model},
                   {"comparable_model_id", a.comparable_model_id},
                   {"input_per_million", a.input_per_million},
                   {"output_per_million", a.output_per_million},
                   {"cached_input_per_million", or_null(a.cached_input_per_million)},
                   {"currency", a.currency},
                   {"requests_per_minute", or_null(a.requests_per_minute)},
                   {"tokens_per_minute", or_null(a.tokens_per_minute)},
                   {"note", a.note},
                   {"observed_on", a.provenance.observed_on},
                   {"source", a.provenance.source}};
    age.add_to(row, a.provenance.observed_on);
    return row;
  };
  Listing l;
  l.keys = keys_of(json_of(ApiPrice{}));
  l.text_header = fmt::format(
      "{:<28} {:<11} {:<16} {:>9} {:>9} {:>9} {:<4} {:>6} {:>8} {:<11} {:>5} {:<5} {}\n", "id",
      "provider", "comparable", "in/M", "out/M", "cached/M", "cur", "RPM", "TPM", "observed", "age",
      "stale", "source");
  for (const auto& a : c.api_prices(as_of)) {
    if (!f.matches(f.provider, a.provider) || !f.price_matches(a.output_per_million)) continue;
    l.add(json_of(a),
          fmt::format(
              "{:<28} {:<11} {:<16} {:>9.3f} {:>9.3f} {:>9} {:<4} {:>6} {:>8} {:<11} {:>5} {:<5} "
              "{}\n",
              a.id, a.provider, a.comparable_model_id.empty() ? "-" : a.comparable_model_id,
              a.input_per_million, a.output_per_million,
              or_dash(a.cached_input_per_million, "{:.3f}"), a.currency,
              or_dash(a.requests_per_minute, "{:.0f}"), or_dash(a.tokens_per_minute, "{:.0f}"),
              a.provenance.observed_on, age.age_text(a.provenance.observed_on),
              age.stale_text(a.provenance.observed_on), a.provenance.source.substr(0, 60)));
  }
  return l;
}

Listing list_carbon(const Catalog& c, const std::string& as_of, const Staleness& age,
                    const ListFilters&) {
  const auto json_of = [&](const GridCarbon& g) {
    ordered row = {{"id", g.id},
                   {"name", g.name},
                   {"g_co2e_per_kwh", g.g_co2e_per_kwh},
                   {"data_year", g.data_year},
                   {"basis", g.basis},
                   {"note", g.note},
                   {"observed_on", g.provenance.observed_on},
                   {"source", g.provenance.source}};
    age.add_to(row, g.provenance.observed_on);
    return row;
  };
  Listing l;
  l.keys = keys_of(json_of(GridCarbon{}));
  l.text_header = fmt::format("{:<20} {:<44} {:>8} {:>5} {:<11} {:>5} {:<5} {}\n", "id", "name",
                              "g/kWh", "year", "observed", "age", "stale", "basis");
  for (const auto& g : c.grid_carbons(as_of)) {
    l.add(json_of(g), fmt::format("{:<20} {:<44} {:>8.1f} {:>5} {:<11} {:>5} {:<5} {}\n", g.id,
                                  g.name.substr(0, 44), g.g_co2e_per_kwh, g.data_year,
                                  g.provenance.observed_on, age.age_text(g.provenance.observed_on),
                                  age.stale_text(g.provenance.observed_on), g.basis));
  }
  return l;
}

/// One CSV field from a JSON value: text guarded against formulas (csv_text_field: a
/// device name "=HYPERLINK(...)" from a price book is not run by the spreadsheet that opens
/// the file), numbers in the shortest form that reads back the same, true/false, and an
/// empty field for null.
std::string csv_value(const ordered& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return csv_text_field(value.get<std::string>());
  return csv_number_field(value.dump());
}

void print_listing(const Listing& l, const std::string& what, const std::string& format,
                   const std::string& as_of, const JsonStamp& stamp, std::ostream& out) {
  if (format == "json") {
    ordered doc;
    doc["gputco"] = stamp_json(stamp);
    doc["list"] = what;
    doc["as_of"] = as_of.empty() ? ordered(nullptr) : ordered(as_of);
    doc["rows"] = l.rows;
    out << doc.dump(2) << "\n";
  } else if (format == "csv") {
    // RFC 4180, as plan --format csv: CRLF line ends.
    for (size_t i = 0; i < l.keys.size(); ++i) out << (i ? "," : "") << csv_text_field(l.keys[i]);
    out << "\r\n";
    for (const auto& row : l.rows) {
      for (size_t i = 0; i < l.keys.size(); ++i) {
        out << (i ? "," : "") << csv_value(row.at(l.keys[i]));
      }
      out << "\r\n";
    }
  } else if (format == "ids") {
    for (const auto& row : l.rows) out << row.at("id").get<std::string>() << "\n";
  } else {
    out << l.text_header;
    for (const auto& line : l.lines) out << line;
  }
}

constexpr const char* kLists[] = {"gpus",   "devices", "models",  "quants", "systems",
                                  "prices", "rentals", "tariffs", "apis",   "carbon"};

/// A filter option and the lists it applies to.
struct FilterRule {
  const char* option;
  std::set<std::string> lists;
};

const std::vector<FilterRule> kFilterRules = {
    {"vendor", {"gpus", "prices", "rentals"}},
    {"min-memory", {"gpus", "prices", "rentals"}},
    {"max-price", {"prices", "rentals", "tariffs", "apis"}},
    {"provider", {"rentals", "apis"}},
    {"region", {"prices", "rentals", "tariffs"}},
    {"term", {"rentals"}},
};

std::string joined(const std::set<std::string>& words) {
  std::string out;
  size_t i = 0;
  for (const auto& w : words) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + w;
    ++i;
  }
  return out;
}

/// Throws UsageError unless `value` (given to --`option`) is one of `known` (any case),
/// naming the nearest: a filter that matches nothing is a typo more often than a question.
void require_known(const std::string& option, const std::string& value,
                   const std::set<std::string>& known) {
  if (value.empty()) return;
  for (const auto& k : known) {
    if (lower(k) == lower(value)) return;
  }
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  throw UsageError("catalog list: --" + option + ": no row has '" + value + "'" +
                   did_you_mean(value, std::vector<std::string>(known.begin(), known.end())) +
                   " (known: " + list + ")");
}

}  // namespace

int catalog_list(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco catalog list "
      "gpus|devices|models|quants|systems|prices|rentals|tariffs|apis|carbon [options]\n\n"
      "Lists the catalog: the built-in one with the user's price books layered over it\n"
      "(gpus and devices are the same list). Prices, rentals, tariffs, API prices (apis) and\n"
      "grid carbon intensities (carbon): the latest observation of each on or before --as-of\n"
      "(default: all), with its age in days at --as-of and a stale flag (older than\n"
      "--max-age); prices and rentals name their book ('built-in' or the book imported).\n\n"
      "options");
  std::string what, as_of, catalog_path, format, max_price_text, min_memory_text;
  int max_age = 90;
  bool json = false;
  ListFilters filters;
  visible.add_options()("help,h", "this text")(
      "format", po::value(&format)->value_name("FMT"),
      "text (the table, default), json, csv (every JSON field as a column, RFC 4180) or ids "
      "(one id a line: gpus, models, quants, systems, tariffs, apis, carbon)")(
      "json", po::bool_switch(&json), "the same as --format json")(
      "as-of", po::value(&as_of)->value_name("DATE"), "YYYY-MM-DD")(
      "max-age", po::value(&max_age)->value_name("DAYS"),
      "a price older than this at --as-of is stale (default 90)")(
      "vendor", po::value(&filters.vendor)->value_name("NAME"),
      "gpus, prices, rentals: the device's vendor (nvidia, amd, intel, apple)")(
      "min-memory", po::value(&min_memory_text)->value_name("GB"),
      "gpus, prices, rentals: at least this much device memory (nameplate GB)")(
      "max-price", po::value(&max_price_text)->value_name("AMOUNT"),
      "at most this price, in the row's own currency: prices (per device), rentals (per "
      "device and billing unit), tariffs (per kWh), apis (per million output tokens)")(
      "provider", po::value(&filters.provider)->value_name("NAME"),
      "rentals, apis: the provider (runpod, lambda, together, ...)")(
      "region", po::value(&filters.region)->value_name("NAME"),
      "prices, rentals, tariffs: the region as listed")(
      "term", po::value(&filters.term)->value_name("TERM"),
      "rentals: on_demand, spot, reserved_1y or reserved_3y")(
      "catalog", po::value(&catalog_path)->value_name("DB"), kCatalogOptionHelp);
  auto vm = parse_arguments(args, visible, {{"what", &what}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (what.empty()) {
    err << visible << "\n";
    return 2;
  }
  if (std::find(std::begin(kLists), std::end(kLists), what) == std::end(kLists)) {
    throw UsageError(
        "catalog list: expected gpus (or devices), models, quants, systems, prices, "
        "rentals, tariffs, apis or carbon, got '" +
        what + "'" +
        did_you_mean(what, std::vector<std::string>(std::begin(kLists), std::end(kLists))));
  }
  if (what == "devices") what = "gpus";
  format = output_format("catalog list", format, json, {"text", "json", "csv", "ids"});
  if (format == "ids" && (what == "prices" || what == "rentals")) {
    throw UsageError("catalog list: --format ids lists ids; " + what +
                     " have none (use --format csv)");
  }
  for (const auto& rule : kFilterRules) {
    if (vm.count(rule.option) && !rule.lists.count(what)) {
      throw UsageError("catalog list " + what + ": --" + rule.option + " applies to " +
                       joined(rule.lists) + " only");
    }
  }
  const auto number_option = [](const char* option, const std::string& text) {
    std::optional<double> value;
    if (text.empty()) return value;
    double x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc() || end != text.data() + text.size() || !(x >= 0) || x > 1e12) {
      throw UsageError(std::string("catalog list: --") + option +
                       " expects a number of 0 or more (a dot for decimals), got '" + text + "'");
    }
    return value = x;
  };
  filters.min_memory_gb = number_option("min-memory", min_memory_text);
  filters.max_price = number_option("max-price", max_price_text);
  if (!as_of.empty()) require_date_option("--as-of", as_of);
  if (max_age < 0) throw UsageError("catalog list: --max-age must be 0 or more days");
  const Staleness age{as_of, max_age};
  const std::string date = as_of.empty() ? kLatest : as_of;
  const Catalog catalog = open_catalog(catalog_path);

  // A text filter must name something the catalog holds (a typo is not an empty answer).
  require_known("vendor", filters.vendor, {"nvidia", "amd", "intel", "apple"});
  require_known("term", filters.term, {"on_demand", "spot", "reserved_1y", "reserved_3y"});
  if (!filters.provider.empty() || !filters.region.empty()) {
    std::set<std::string> providers, regions;
    if (what == "rentals") {
      for (const auto& r : catalog.rental_offers(date)) {
        providers.insert(r.provider);
        regions.insert(r.region);
      }
    } else if (what == "apis") {
      for (const auto& a : catalog.api_prices(date)) providers.insert(a.provider);
    } else if (what == "prices") {
      for (const auto& p : catalog.prices(date)) regions.insert(p.region);
    } else if (what == "tariffs") {
      for (const auto& t : catalog.tariffs(date)) regions.insert(t.region);
    }
    require_known("provider", filters.provider, providers);
    require_known("region", filters.region, regions);
  }

  Listing listing;
  if (what == "gpus") {
    listing = list_gpus(catalog, filters);
  } else if (what == "models") {
    listing = list_models(catalog, filters);
  } else if (what == "quants") {
    listing = list_quants(catalog, filters);
  } else if (what == "systems") {
    listing = list_systems(catalog, filters);
  } else if (what == "prices") {
    listing = list_prices(catalog, date, age, filters);
  } else if (what == "rentals") {
    listing = list_rentals(catalog, date, age, filters);
  } else if (what == "tariffs") {
    listing = list_tariffs(catalog, date, age, filters);
  } else if (what == "apis") {
    listing = list_apis(catalog, date, age, filters);
  } else {
    listing = list_carbon(catalog, date, age, filters);
  }
  print_listing(listing, what, format, as_of, json_stamp(catalog), out);
  return 0;
}

}  // namespace gputco::cli
