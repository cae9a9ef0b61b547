// gputco catalog list gpus|models|quants|prices|rentals|tariffs [--as-of DATE] [--json]
#include <fmt/format.h>
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

using ordered = nlohmann::ordered_json;

/// Without --as-of, lists every observation up to the end of the calendar (no wall clock).
constexpr const char* kLatest = "2999-12-31";

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
    out << fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}\n", "id", "name",
                       "params_b", "active_b", "layers", "heads", "kv_heads", "head_dim",
                       "max_ctx");
  }
  for (const auto& m : c.models()) {
    if (json) {
      rows.push_back({{"id", m.id},
                      {"name", m.name},
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
                      {"max_context", m.max_context}});
    } else {
      out << fmt::format("{:<16} {:<18} {:>9} {:>9} {:>6} {:>6} {:>8} {:>8} {:>9}\n", m.id, m.name,
                         m.params_b, m.active_params_b, m.layers, m.heads, m.kv_heads, m.head_dim,
                         m.max_context);
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

void list_prices(const Catalog& c, const std::string& as_of, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<24} {:<9} {:>10} {:<4} {:<11} {}\n", "device", "condition", "amount",
                       "cur", "observed", "source");
  }
  for (const auto& p : c.prices(as_of)) {
    if (json) {
      rows.push_back({{"item_id", p.item_id},
                      {"condition", p.condition},
                      {"amount", p.amount},
                      {"currency", p.currency},
                      {"region", p.region},
                      {"seller", p.seller},
                      {"observed_on", p.provenance.observed_on},
                      {"source", p.provenance.source}});
    } else {
      out << fmt::format("{:<24} {:<9} {:>10.2f} {:<4} {:<11} {}\n", p.item_id, p.condition,
                         p.amount, p.currency, p.provenance.observed_on, p.provenance.source);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_rentals(const Catalog& c, const std::string& as_of, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<22} {:<14} {:<30} {:<8} {:<12} {:>10} {:<4} {:<11}\n", "device",
                       "provider", "sku", "billing", "term", "per device", "cur", "observed");
  }
  for (const auto& r : c.rental_offers(as_of)) {
    if (json) {
      rows.push_back({{"provider", r.provider},
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
                      {"source", r.provenance.source}});
    } else {
      out << fmt::format("{:<22} {:<14} {:<30} {:<8} {:<12} {:>10.3f} {:<4} {:<11}\n", r.device_id,
                         r.provider, r.sku, r.billing, r.term, r.amount_per_device(), r.currency,
                         r.provenance.observed_on);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

void list_tariffs(const Catalog& c, const std::string& as_of, bool json, std::ostream& out) {
  ordered rows = ordered::array();
  if (!json) {
    out << fmt::format("{:<22} {:<24} {:>8} {:<4} {:<11} {}\n", "id", "region", "per kWh", "cur",
                       "observed", "source");
  }
  for (const auto& t : c.tariffs(as_of)) {
    if (json) {
      rows.push_back({{"id", t.id},
                      {"region", t.region},
                      {"amount_per_kwh", t.amount_per_kwh},
                      {"currency", t.currency},
                      {"note", t.note},
                      {"observed_on", t.provenance.observed_on},
                      {"source", t.provenance.source}});
    } else {
      out << fmt::format("{:<22} {:<24} {:>8.4f} {:<4} {:<11} {}\n", t.id, t.region,
                         t.amount_per_kwh, t.currency, t.provenance.observed_on,
                         t.provenance.source);
    }
  }
  if (json) out << rows.dump(2) << "\n";
}

}  // namespace

int catalog_command(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco catalog list gpus|models|quants|prices|rentals|tariffs [options]\n\n"
      "Lists the catalog. Prices, rentals and tariffs: the latest observation of each on or\n"
      "before --as-of (default: all).\n\noptions");
  std::string action, what, as_of = kLatest, catalog_path;
  bool json = false;
  visible.add_options()("help,h", "this text")("json", po::bool_switch(&json), "print JSON")(
      "as-of", po::value(&as_of)->value_name("DATE"), "YYYY-MM-DD")(
      "catalog", po::value(&catalog_path)->value_name("DB"), "catalog database file");
  po::options_description all;
  all.add(visible).add_options()("action", po::value(&action))("what", po::value(&what));
  po::positional_options_description positional;
  positional.add("action", 1).add("what", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help") || action.empty()) {
    out << visible << "\n";
    return vm.count("help") ? 0 : 2;
  }
  if (action != "list")
    throw UsageError("catalog: unknown action '" + action + "' (expected list)");
  if (!parse_date(as_of))
    throw UsageError("catalog: --as-of expects YYYY-MM-DD, got '" + as_of + "'");
  const Catalog catalog = open_catalog(catalog_path);
  if (what == "gpus") {
    list_gpus(catalog, json, out);
  } else if (what == "models") {
    list_models(catalog, json, out);
  } else if (what == "quants") {
    list_quants(catalog, json, out);
  } else if (what == "prices") {
    list_prices(catalog, as_of, json, out);
  } else if (what == "rentals") {
    list_rentals(catalog, as_of, json, out);
  } else if (what == "tariffs") {
    list_tariffs(catalog, as_of, json, out);
  } else {
    throw UsageError(
        "catalog list: expected gpus, models, quants, prices, rentals or tariffs, got '" + what +
        "'");
  }
  return 0;
}

}  // namespace gputco::cli
