// gputco catalog list|show|import|export|check: the catalog and the user's price books.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/scenario.hpp"

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
    if (as_of.empty()) return std::nullopt;
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

void list_gpus(const Catalog& c, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<24} {:<34} {:<7} {:<12} {:>6} {:>9} {:>7} {:>8}\n", "id", "name",
                       "vendor", "kind", "GB", "GB/s", "W", "TFLOPS");
  }
  for (const auto& d : c.devices()) {
    if (json) {
      rows.push_back({{"id", d.id},
                      {"name", d.name},
                      {"vendor", to_string(d.vendor)},
                      {"kind", to_string(d.kind)},
                      {"memory_nameplate_gb", d.memory_nameplate_gb},
                      {"memory_type", d.memory_type},
                      {"bandwidth_gbps", d.bandwidth_gbps},
                      {"board_power_w", d.board_power_w},
                      {"fp16_tflops", d.fp16_tflops},
                      {"nvlink_gbps", d.nvlink_gbps}});
    } else {
      out << fmt::format("{:<24} {:<34} {:<7} {:<12} {:>6} {:>9} {:>7} {:>8}\n", d.id, d.name,
                         to_string(d.vendor), to_string(d.kind), d.memory_nameplate_gb,
                         d.bandwidth_gbps, d.board_power_w,
                         d.fp16_tflops > 0 ? fmt::format("{}", d.fp16_tflops) : "-");
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_models(const Catalog& c, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}  {}\n", "id",
                       "name", "params_b", "active_b", "layers", "heads", "kv_heads", "head_dim",
                       "max_ctx", "hf_repo (alias)");
  }
  for (const auto& m : c.models()) {
    if (json) {
      rows.push_back({{"id", m.id},
                      {"name", m.name},
                      {"hf_repo", m.hf_repo},
                      {"params_b", m.params_b},
                      {"active_params_b", m.active_params_b},
                      {"layers", m.layers},
                      {"heads", m.heads},
                      {"kv_heads", m.kv_heads},
                      {"head_dim", m.head_dim},
                      {"experts", m.experts},
                      {"experts_active", m.experts_active},
                      {"swa_window", m.swa_window},
                      {"swa_layers", m.swa_layers},
                      {"mla_kv_lora_rank", m.mla_kv_lora_rank},
                      {"max_context", m.max_context},
                      {"max_context_scaled", m.max_context_scaled},
                      {"layers_without_kv", m.layers_without_kv},
                      {"recurrent_layers", m.recurrent_layers}});
    } else {
      out << fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}  {}\n", m.id,
                         m.name, m.params_b, m.active_params_b, m.layers, m.heads, m.kv_heads,
                         m.head_dim, m.max_context, m.hf_repo.empty() ? "-" : m.hf_repo);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_quants(const Catalog& c, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) out << fmt::format("{:<10} {:>15} {:<6}\n", "quant", "bits_per_weight", "kind");
  for (const auto& q : c.quants()) {
    if (json) {
      rows.push_back({{"id", q.id}, {"bits_per_weight", q.bits_per_weight}, {"kind", q.kind}});
    } else {
      out << fmt::format("{:<10} {:>15} {:<6}\n", q.id, q.bits_per_weight, q.kind);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_systems(const Catalog& c, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<18} {:<40} {:<11} {:<10} {:>5} {:>7}\n", "id", "name", "kind", "device",
                       "count", "host W");
  }
  for (const auto& s : c.systems()) {
    if (json) {
      rows.push_back({{"id", s.id},
                      {"name", s.name},
                      {"kind", s.kind},
                      {"device_id", s.device_id},
                      {"device_count", s.device_count},
                      {"host", s.host},
                      {"host_power_w", s.host_power_w},
                      {"observed_on", s.provenance.observed_on},
                      {"source", s.provenance.source}});
    } else {
      out << fmt::format("{:<18} {:<40} {:<11} {:<10} {:>5} {:>7}\n", s.id, s.name, s.kind,
                         s.device_id, s.device_count, s.host_power_w);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_prices(const Catalog& c, const std::string& as_of, const Staleness& age, bool json,
                 std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<24} {:<9} {:>10} {:<4} {:<11} {:>5} {:<5} {:<10} {}\n", "device",
                       "condition", "amount", "cur", "observed", "age", "stale", "book", "source");
  }
  for (const auto& p : c.prices(as_of)) {
    if (json) {
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
      rows.push_back(std::move(row));
    } else {
      out << fmt::format(
          "{:<24} {:<9} {:>10.2f} {:<4} {:<11} {:>5} {:<5} {:<10} {}\n", p.item_id, p.condition,
          p.amount, p.currency, p.provenance.observed_on, age.age_text(p.provenance.observed_on),
          age.stale_text(p.provenance.observed_on), p.provenance.book, p.provenance.source);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_rentals(const Catalog& c, const std::string& as_of, const Staleness& age, bool json,
                  std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<22} {:<14} {:<30} {:<8} {:<12} {:>10} {:<4} {:<11} {:>5} {:<5} {}\n",
                       "device", "provider", "sku", "billing", "term", "per device", "cur",
                       "observed", "age", "stale", "book");
  }
  for (const auto& r : c.rental_offers(as_of)) {
    if (json) {
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
      rows.push_back(std::move(row));
    } else {
      out << fmt::format(
          "{:<22} {:<14} {:<30} {:<8} {:<12} {:>10.3f} {:<4} {:<11} {:>5} {:<5} {}\n", r.device_id,
          r.provider, r.sku, r.billing, r.term, r.amount_per_device(), r.currency,
          r.provenance.observed_on, age.age_text(r.provenance.observed_on),
          age.stale_text(r.provenance.observed_on), r.provenance.book);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_tariffs(const Catalog& c, const std::string& as_of, const Staleness& age, bool json,
                  std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<22} {:<24} {:>8} {:<4} {:<11} {:>5} {:<5} {}\n", "id", "region",
                       "per kWh", "cur", "observed", "age", "stale", "source");
  }
  for (const auto& t : c.tariffs(as_of)) {
    if (json) {
      ordered row = {{"id", t.id},
                     {"region", t.region},
                     {"amount_per_kwh", t.amount_per_kwh},
                     {"currency", t.currency},
                     {"note", t.note},
                     {"observed_on", t.provenance.observed_on},
                     {"source", t.provenance.source}};
      age.add_to(row, t.provenance.observed_on);
      rows.push_back(std::move(row));
    } else {
      out << fmt::format("{:<22} {:<24} {:>8.4f} {:<4} {:<11} {:>5} {:<5} {}\n", t.id, t.region,
                         t.amount_per_kwh, t.currency, t.provenance.observed_on,
                         age.age_text(t.provenance.observed_on),
                         age.stale_text(t.provenance.observed_on), t.provenance.source);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

/// An optional figure (not published): the number, or "-".
std::string or_dash(const std::optional<double>& x, const char* format) {
  return x ? fmt::format(fmt::runtime(format), *x) : std::string("-");
}

ordered or_null(const std::optional<double>& x) {
  return x ? ordered(*x) : ordered(nullptr);
}

void list_apis(const Catalog& c, const std::string& as_of, const Staleness& age, bool json,
               std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format(
        "{:<28} {:<11} {:<16} {:>9} {:>9} {:>9} {:<4} {:>6} {:>8} {:<11} {:>5} {:<5} {}\n", "id",
        "provider", "comparable", "in/M", "out/M", "cached/M", "cur", "RPM", "TPM", "observed",
        "age", "stale", "source");
  }
  for (const auto& a : c.api_prices(as_of)) {
    if (json) {
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
      rows.push_back(std::move(row));
    } else {
      out << fmt::format(
          "{:<28} {:<11} {:<16} {:>9.3f} {:>9.3f} {:>9} {:<4} {:>6} {:>8} {:<11} {:>5} {:<5} {}\n",
          a.id, a.provider, a.comparable_model_id.empty() ? "-" : a.comparable_model_id,
          a.input_per_million, a.output_per_million, or_dash(a.cached_input_per_million, "{:.3f}"),
          a.currency, or_dash(a.requests_per_minute, "{:.0f}"),
          or_dash(a.tokens_per_minute, "{:.0f}"), a.provenance.observed_on,
          age.age_text(a.provenance.observed_on), age.stale_text(a.provenance.observed_on),
          a.provenance.source.substr(0, 60));
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_carbon(const Catalog& c, const std::string& as_of, const Staleness& age, bool json,
                 std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<20} {:<44} {:>8} {:>5} {:<11} {:>5} {:<5} {}\n", "id", "name", "g/kWh",
                       "year", "observed", "age", "stale", "basis");
  }
  for (const auto& g : c.grid_carbons(as_of)) {
    if (json) {
      ordered row = {{"id", g.id},
                     {"name", g.name},
                     {"g_co2e_per_kwh", g.g_co2e_per_kwh},
                     {"data_year", g.data_year},
                     {"basis", g.basis},
                     {"note", g.note},
                     {"observed_on", g.provenance.observed_on},
                     {"source", g.provenance.source}};
      age.add_to(row, g.provenance.observed_on);
      rows.push_back(std::move(row));
    } else {
      out << fmt::format("{:<20} {:<44} {:>8.1f} {:>5} {:<11} {:>5} {:<5} {}\n", g.id,
                         g.name.substr(0, 44), g.g_co2e_per_kwh, g.data_year,
                         g.provenance.observed_on, age.age_text(g.provenance.observed_on),
                         age.stale_text(g.provenance.observed_on), g.basis);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

constexpr const char* kCatalogUsage =
    "usage: gputco catalog ACTION [options]   (gputco catalog ACTION --help)\n"
    "\n"
    "actions:\n"
    "  list gpus|models|quants|systems|prices|rentals|tariffs|apis|carbon\n"
    "                 the catalog as of a date, with each price's age and a stale flag\n"
    "  show ID        price history of a device: every purchase price and rental offer, dated,\n"
    "                 with its source and book\n"
    "  import FILE    import a price file into a price book of the user catalog\n"
    "  export [prices|rentals]\n"
    "                 write a price book as CSV (importable again)\n"
    "  check          integrity report of the built-in and user catalogs (exit 1 on problems)\n"
    "\n"
    "The user catalog (price books) is $XDG_DATA_HOME/gputco/catalog.sqlite, else\n"
    "~/.local/share/gputco/catalog.sqlite, or --catalog DB; it is layered over the built-in\n"
    "catalog: a book's price wins over the built-in one for the same item and date.\n";

}  // namespace

void require_date_option(const std::string& option, const std::string& date) {
  if (!parse_date(date)) {
    throw UsageError("catalog: " + option + " expects YYYY-MM-DD, got '" + date + "'");
  }
}

int catalog_list(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco catalog list gpus|models|quants|systems|prices|rentals|tariffs|apis|carbon "
      "[options]\n\n"
      "Lists the catalog: the built-in one with the user's price books layered over it.\n"
      "Prices, rentals, tariffs, API prices (apis) and grid carbon intensities (carbon): the\n"
      "latest observation of each on or before --as-of\n"
      "(default: all), with its age in days at --as-of and a stale flag (older than\n"
      "--max-age); prices and rentals name their book ('built-in' or the book imported).\n\n"
      "options");
  std::string what, as_of, catalog_path;
  int max_age = 90;
  bool json = false;
  visible.add_options()("help,h", "this text")("json", po::bool_switch(&json), "print JSON")(
      "as-of", po::value(&as_of)->value_name("DATE"), "YYYY-MM-DD")(
      "max-age", po::value(&max_age)->value_name("DAYS"),
      "a price older than this at --as-of is stale (default 90)")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "user catalog to layer over the built-in one (default: the XDG one, if it exists)");
  auto vm = parse_arguments(args, visible, {{"what", &what}});
  if (vm.count("help") || what.empty()) {
    out << visible << "\n";
    return vm.count("help") ? 0 : 2;
  }
  if (!as_of.empty()) require_date_option("--as-of", as_of);
  if (max_age < 0) throw UsageError("catalog list: --max-age must be 0 or more days");
  const Staleness age{as_of, max_age};
  const std::string date = as_of.empty() ? kLatest : as_of;
  const Catalog catalog = open_catalog(catalog_path);
  if (what == "gpus") {
    list_gpus(catalog, json, out);
  } else if (what == "models") {
    list_models(catalog, json, out);
  } else if (what == "quants") {
    list_quants(catalog, json, out);
  } else if (what == "systems") {
    list_systems(catalog, json, out);
  } else if (what == "prices") {
    list_prices(catalog, date, age, json, out);
  } else if (what == "rentals") {
    list_rentals(catalog, date, age, json, out);
  } else if (what == "tariffs") {
    list_tariffs(catalog, date, age, json, out);
  } else if (what == "apis") {
    list_apis(catalog, date, age, json, out);
  } else if (what == "carbon") {
    list_carbon(catalog, date, age, json, out);
  } else {
    throw UsageError(
        "catalog list: expected gpus, models, quants, systems, prices, rentals, tariffs, apis or "
        "carbon, got '" +
        what + "'");
  }
  return 0;
}

int catalog_show(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco catalog show DEVICE_ID [options]\n\n"
      "Price history of a device: every purchase price and rental offer ever observed, from\n"
      "the built-in catalog and every price book, in date order, with source and book.\n\n"
      "options");
  std::string id, catalog_path;
  bool json = false;
  visible.add_options()("help,h", "this text")("json", po::bool_switch(&json), "print JSON")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "user catalog to layer over the built-in one (default: the XDG one, if it exists)");
  auto vm = parse_arguments(args, visible, {{"id", &id}});
  if (vm.count("help") || id.empty()) {
    out << visible << "\n";
    return vm.count("help") ? 0 : 2;
  }
  const Catalog catalog = open_catalog(catalog_path);
  const auto device = catalog.device(id);
  if (!device) {
    std::vector<std::string> ids;
    for (const auto& d : catalog.devices()) ids.push_back(d.id);
    const std::string hint = nearest(id, ids);
    throw UsageError("catalog show: unknown device '" + id + "'" +
                     (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                     " (gputco catalog list gpus)");
  }
  const auto prices = catalog.price_history(id);
  const auto rentals = catalog.rental_history(id);
  if (json) {
    ordered doc = {{"id", device->id}, {"name", device->name}};
    doc["purchase_prices"] = ordered::array();
    for (const auto& p : prices) {
      doc["purchase_prices"].push_back({{"observed_on", p.provenance.observed_on},
                                        {"condition", p.condition},
                                        {"amount", p.amount},
                                        {"currency", p.currency},
                                        {"region", p.region},
                                        {"seller", p.seller},
                                        {"book", p.provenance.book},
                                        {"source", p.provenance.source}});
    }
    doc["rental_offers"] = ordered::array();
    for (const auto& r : rentals) {
      doc["rental_offers"].push_back({{"observed_on", r.provenance.observed_on},
                                      {"provider", r.provider},
                                      {"sku", r.sku},
                                      {"devices_per_instance", r.devices_per_instance},
                                      {"billing", r.billing},
                                      {"term", r.term},
                                      {"amount", r.amount},
                                      {"amount_per_device", r.amount_per_device()},
                                      {"currency", r.currency},
                                      {"region", r.region},
                                      {"book", r.provenance.book},
                                      {"source", r.provenance.source}});
    }
    out << doc.dump(2) << "\n";
    return 0;
  }
  out << device->id << ": " << device->name << "\n\npurchase prices (" << prices.size() << ")\n";
  out << fmt::format("  {:<11} {:<11} {:>10} {:<4} {:<8} {:<24} {:<10} {}\n", "observed",
                     "condition", "amount", "cur", "region", "seller", "book", "source");
  for (const auto& p : prices) {
    out << fmt::format("  {:<11} {:<11} {:>10.2f} {:<4} {:<8} {:<24} {:<10} {}\n",
                       p.provenance.observed_on, p.condition, p.amount, p.currency, p.region,
                       p.seller, p.provenance.book, p.provenance.source);
  }
  out << "\nrental offers (" << rentals.size() << ")\n";
  out << fmt::format("  {:<11} {:<12} {:<30} {:<8} {:<12} {:>10} {:<4} {:<10} {}\n", "observed",
                     "provider", "sku", "billing", "term", "per device", "cur", "book", "source");
  for (const auto& r : rentals) {
    out << fmt::format("  {:<11} {:<12} {:<30} {:<8} {:<12} {:>10.3f} {:<4} {:<10} {}\n",
                       r.provenance.observed_on, r.provider, r.sku, r.billing, r.term,
                       r.amount_per_device(), r.currency, r.provenance.book, r.provenance.source);
  }
  return 0;
}

int catalog_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kCatalogUsage;
    return 2;
  }
  const std::string& action = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (action == "--help" || action == "-h" || action == "help") {
    out << kCatalogUsage;
    return 0;
  }
  if (action == "list") return catalog_list(rest, out, err);
  if (action == "show") return catalog_show(rest, out, err);
  if (action == "import") return catalog_import(rest, out, err);
  if (action == "export") return catalog_export(rest, out, err);
  if (action == "check") return catalog_check(rest, out, err);
  throw UsageError("catalog: unknown action '" + action +
                   "' (expected list, show, import, export or check)");
}

}  // namespace gputco::cli
