#include "pricing/catalog_build.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <utility>
#include <variant>

#include "engine/hardware.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/catalog_table.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/suggest.hpp"

namespace gputco {

namespace fs = std::filesystem;

namespace {

using namespace catalog_table;  // the typed rows of one file (catalog_table.hpp)

Column text(std::string_view name) {
  return {name, Type::text};
}
Column note(std::string_view name) {
  return {name, Type::text, true};
}
Column identifier(std::string_view name) {
  return {name, Type::identifier};
}
Column decimal(std::string_view name, Range range, bool optional = false) {
  return {name, Type::decimal, optional, range};
}
Column integer(std::string_view name, Range range, bool optional = false) {
  return {name, Type::integer, optional, range};
}
Column date(std::string_view name) {
  return {name, Type::date};
}
Column choice(std::string_view name, std::vector<std::string_view> choices, bool optional = false) {
  return {name, Type::choice, optional, Range::any, std::move(choices)};
}
Column currency(std::string_view name) {
  return {name, Type::currency};
}
// purchase_prices.csv's price_type (migration 0004): list (MSRP) or street (observed retail);
// files written before it read as street, the observed prices they hold.
Column price_type() {
  return {"price_type", Type::choice, false, Range::any, {"list", "street"}, "street"};
}
// A column added by a migration (0006: models read from files; 0008: a system's interconnect):
// optional, and empty in every row of a file without it.
Column added(Column column) {
  column.optional = true;
  column.when_absent = "";
  return column;
}

const std::vector<TableSpec>& table_specs() {
  static const std::vector<TableSpec> specs = {
      {"devices.csv",
       "devices",
       true,
       {identifier("id"), text("name"), choice("vendor", {"nvidia", "amd", "intel", "apple"}),
        choice("kind", {"consumer", "workstation", "datacenter", "unified"}),
        decimal("memory_gb", Range::positive), text("memory_type"),
        decimal("bandwidth_gbps", Range::positive), decimal("board_power_w", Range::positive, true),
        decimal("fp16_tflops", Range::positive, true), decimal("fp8_tflops", Range::positive, true),
        decimal("fp4_tflops", Range::positive, true), decimal("nvlink_gbps", Range::positive, true),
        note("note"), text("source"), date("observed_on")},
       {"id"},
       true},
      {"models.csv",
       "models",
       true,
       {identifier("id"),
        text("name"),
        decimal("params_b", Range::positive),
        decimal("active_params_b", Range::positive),
        integer("layers", Range::positive),
        integer("hidden", Range::positive),
        integer("heads", Range::positive),
        integer("kv_heads", Range::positive, true),
        integer("head_dim", Range::positive, true),
        integer("experts", Range::positive, true),
        integer("experts_active", Range::positive, true),
        integer("swa_window", Range::positive, true),
        integer("swa_layers", Range::positive, true),
        integer("mla_kv_lora_rank", Range::positive, true),
        integer("mla_rope_dim", Range::positive, true),
        integer("max_context", Range::positive),
        integer("vocab_size", Range::positive, true),
        choice("tied_embeddings", {"0", "1"}, true),
        note("note"),
        text("source"),
        date("observed_on"),
        added(text("hf_repo")),
        added(integer("head_dim_v", Range::positive)),
        added(integer("max_context_scaled", Range::positive)),
        added(integer("layers_without_kv", Range::non_negative)),
        added(integer("recurrent_layers", Range::non_negative)),
        added(decimal("recurrent_state_elements", Range::positive))},
       {"id"},
       true},
      {"quants.csv",
       "quants",
       true,
       {text("quant"), decimal("bits_per_weight", Range::positive),
        choice("kind", {"float", "block", "mix", "group"}), note("note"), text("source"),
        date("observed_on")},
       {"quant"},
       true},
      {"purchase_prices.csv",
       "price_observations",
       false,
       {text("item_id"), choice("condition", {"new", "used", "refurbished"}),
        decimal("amount", Range::positive), currency("currency"), text("region"), text("seller"),
        date("observed_on"), text("source"), note("note"), price_type()},
       {"item_id", "condition", "seller", "region", "observed_on"}},
      {"rental_offers.csv",
       "rental_offers",
       false,
       {text("provider"), text("sku"), text("device_id"),
        integer("devices_per_instance", Range::positive), choice("billing", {"hourly", "monthly"}),
        choice("term", {"on_demand", "spot", "reserved_1y", "reserved_3y"}),
        decimal("amount", Range::positive), decimal("setup_fee", Range::non_negative),
        currency("currency"), text("region"), date("observed_on"), text("source"), note("note")},
       {"provider", "sku", "billing", "term", "region", "observed_on"}},
      {"tariffs.csv",
       "tariffs",
       false,
       {identifier("id"), text("region"), decimal("amount_per_kwh", Range::positive),
        currency("currency"), date("observed_on"), text("source"), note("note")},
       {"id", "observed_on"}},
      {"fx_rates.csv",
       "fx_rates",
       false,
       {currency("base"), currency("quote"), decimal("rate", Range::positive), date("observed_on"),
        text("source")},
       {"base", "quote", "observed_on"}},
      {"systems.csv",
       "systems",
       false,
       {identifier("id"), text("name"), choice("kind", {"server", "workstation"}),
        text("device_id"), integer("device_count", Range::positive), text("host"),
        decimal("host_power_w", Range::non_negative), note("note"), text("source"),
        date("observed_on"), added(integer("nvlink_domain_gpus", Range::positive)),
        added(text("interconnect"))},
       {"id"},
       true},
      {"system_prices.csv",
       "system_prices",
       false,
       {text("system_id"), choice("condition", {"new", "used", "refurbished"}),
        choice("includes_devices", {"0", "1"}), decimal("amount", Range::positive),
        currency("currency"), text("region"), text("seller"), date("observed_on"), text("source"),
        note("note")},
       {"system_id", "condition", "includes_devices", "seller", "region", "observed_on"}},
      {"resale_curves.csv",
       "resale_curves",
       false,
       {choice("device_class", {"consumer", "workstation", "datacenter", "unified", "host"}),
        choice("condition", {"new", "used", "refurbished"}),
        integer("age_months", Range::non_negative), decimal("fraction", Range::non_negative),
        date("observed_on"), text("source"), note("note")},
       {"device_class", "condition", "age_months", "observed_on"}},
      {"api_prices.csv",
       "api_prices",
       false,
       {identifier("id"), text("provider"), text("api_model"), note("comparable_model_id"),
        decimal("input_per_million", Range::non_negative),
        decimal("output_per_million", Range::non_negative),
        decimal("cached_input_per_million", Range::non_negative, true), currency("currency"),
        decimal("requests_per_minute", Range::positive, true),
        decimal("tokens_per_minute", Range::positive, true), date("observed_on"), text("source"),
        note("note")},
       {"id", "observed_on"}},
      {"grid_carbon.csv",
       "grid_carbon",
       false,
       {identifier("id"), text("name"), decimal("g_co2e_per_kwh", Range::non_negative),
        integer("data_year", Range::positive), text("basis"), date("observed_on"), text("source"),
        note("note")},
       {"id", "observed_on"}},
  };
  return specs;
}

std::string key_text(const Table& table, const Row& row, std::string_view separator) {
  std::string out;
  for (std::string_view column : table.spec->key) {
    if (!out.empty()) out += separator;
    const Value& v = row.values[table.index(column)];
    if (const auto* s = std::get_if<std::string>(&v)) out += *s;
    if (const auto* d = std::get_if<double>(&v)) out += format_number(*d);
    if (const auto* i = std::get_if<std::int64_t>(&v)) out += std::to_string(*i);
  }
  return out;
}

// Records every row whose key appeared on an earlier line.
void check_duplicates(const Table& table, Problems& problems) {
  std::map<std::string, int> first_line;
  const std::vector<std::string_view>& key_columns = table.spec->key;
  for (const Row& row : table.rows) {
    bool key_ok = std::all_of(key_columns.begin(), key_columns.end(),
                              [&](std::string_view c) { return row.valid[table.index(c)]; });
    if (!key_ok) continue;
    // An id key compares ignoring case: "H100" and "h100" name one device.
    const std::string key = key_text(table, row, "\x1f");
    auto [it, inserted] =
        first_line.emplace(table.spec->key_ignores_case ? ascii_lowercase(key) : key, row.line);
    if (!inserted) {
      problems.add(table.path, row.line, join(key_columns, "+"),
                   "duplicate key (" + key_text(table, row, ", ") + "), first on line " +
                       std::to_string(it->second) +
                       (table.spec->key_ignores_case ? " (ids ignore case)" : ""));
    }
  }
}

void check_models(const Table& models, Problems& problems) {
  for (const Row& row : models.rows) {
    if (!models.ok(row, {"params_b", "active_params_b", "layers", "kv_heads", "experts",
                         "experts_active", "swa_layers", "mla_kv_lora_rank"})) {
      continue;
    }
    auto add = [&](std::string_view column, const std::string& what) {
      problems.add(models.path, row.line, column, what);
    };
    double params = models.num(row, "params_b");
    double active = models.num(row, "active_params_b");
    if (active > params) {
      add("active_params_b", "must not exceed params_b (" + format_number(active) + " > " +
                                 format_number(params) + ")");
    }
    auto experts = models.opt_int(row, "experts");
    auto experts_active = models.opt_int(row, "experts_active");
    if (experts_active && (!experts || *experts_active > *experts)) {
      add("experts_active", "needs experts and must not exceed it");
    }
    auto swa_layers = models.opt_int(row, "swa_layers");
    if (swa_layers && swa_layers > models.opt_int(row, "layers")) {
      add("swa_layers", "must not exceed layers");
    }
    if (!models.opt_int(row, "kv_heads") && !models.opt_int(row, "mla_kv_lora_rank")) {
      add("kv_heads", "required, but empty (only MLA models, with mla_kv_lora_rank, omit it)");
    }
    const auto layers = models.opt_int(row, "layers").value_or(0);
    if (models.ok(row, {"layers_without_kv"}) && models.opt_int(row, "layers_without_kv") &&
        *models.opt_int(row, "layers_without_kv") + swa_layers.value_or(0) > layers) {
      add("layers_without_kv", "with swa_layers must not exceed layers");
    }
    if (models.ok(row, {"recurrent_layers", "recurrent_state_elements"})) {
      const auto recurrent = models.opt_int(row, "recurrent_layers").value_or(0);
      if (recurrent > layers) add("recurrent_layers", "must not exceed layers");
      const bool has_state = models.opt_num(row, "recurrent_state_elements").has_value();
      if (recurrent > 0 && !has_state) {
        add("recurrent_state_elements", "required with recurrent_layers (the state's size)");
      }
      if (recurrent == 0 && has_state) add("recurrent_layers", "required with a recurrent state");
    }
    if (models.ok(row, {"max_context", "max_context_scaled"})) {
      const auto scaled = models.opt_int(row, "max_context_scaled");
      if (scaled && *scaled <= models.opt_int(row, "max_context").value_or(0)) {
        add("max_context_scaled", "must exceed max_context (it is the RoPE-scaled maximum)");
      }
    }
  }
}

// Hugging Face repository ids: "owner/name", each a model's alias, unique ignoring case and
// never another model's id.
void check_hf_repos(const Table& models, Problems& problems) {
  static const std::regex kRepoId(R"([A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)");
  std::map<std::string, int> ids;
  for (const Row& row : models.rows) {
    if (models.ok(row, {"id"})) ids.emplace(ascii_lowercase(models.str(row, "id")), row.line);
  }
  std::map<std::string, int> seen;
  for (const Row& row : models.rows) {
    if (!models.ok(row, {"hf_repo"})) continue;
    const std::string& repo = models.str(row, "hf_repo");
    if (repo.empty()) continue;
    if (!std::regex_match(repo, kRepoId)) {
      problems.add(models.path, row.line, "hf_repo",
                   in_quotes(repo) + " is not a Hugging Face repository id (owner/name)");
      continue;
    }
    if (const auto [it, fresh] = seen.emplace(ascii_lowercase(repo), row.line); !fresh) {
      problems.add(models.path, row.line, "hf_repo",
                   in_quotes(repo) + " is the alias of line " + std::to_string(it->second) +
                       " already (aliases ignore case)");
    }
    if (const auto it = ids.find(ascii_lowercase(repo)); it != ids.end()) {
      problems.add(models.path, row.line, "hf_repo",
                   in_quotes(repo) + " is the id of line " + std::to_string(it->second));
    }
  }
}

// Figures nobody's part has (engine figure_problem): a unit slip in a row a user wrote.
void check_figures(const Table& table, const std::vector<std::string_view>& columns,
                   Problems& problems) {
  for (const Row& row : table.rows) {
    for (std::string_view column : columns) {
      if (!row.valid[table.index(column)]) continue;
      const auto value = table.opt_num(row, column);
      if (!value) continue;
      if (const std::string problem = figure_problem(column, *value); !problem.empty()) {
        problems.add(table.path, row.line, column, problem);
      }
    }
  }
}

const std::vector<std::string_view> kDeviceFigures = {
    "memory_gb",  "bandwidth_gbps", "board_power_w", "fp16_tflops",
    "fp8_tflops", "fp4_tflops",     "nvlink_gbps"};
const std::vector<std::string_view> kModelFigures = {
    "params_b", "active_params_b", "layers",     "hidden",      "heads",     "kv_heads",
    "head_dim", "experts",         "swa_window", "max_context", "vocab_size"};

// A system's NVLink domain (migration 0008) joins some of its devices, never more than it holds.
void check_nvlink_domains(const Table& systems, Problems& problems) {
  for (const Row& row : systems.rows) {
    if (!systems.ok(row, {"nvlink_domain_gpus", "device_count"})) continue;
    const auto domain = systems.opt_int(row, "nvlink_domain_gpus");
    const auto count = systems.opt_int(row, "device_count");
    if (domain && count && *domain > *count) {
      problems.add(systems.path, row.line, "nvlink_domain_gpus",
                   std::to_string(*domain) + " is more than the system's device_count " +
                       std::to_string(*count) +
                       ": one NVLink domain joins some or all of the system's devices");
    }
  }
}

// `what` names the referenced thing ("device"), `where` the list of known ids.
void check_refs(const Table& table, std::string_view column,
                const std::set<std::string, std::less<>>& ids, std::string_view what,
                const std::string& where, Problems& problems) {
  for (const Row& row : table.rows) {
    if (!table.ok(row, {column})) continue;
    const std::string& id = table.str(row, column);
    if (ids.find(id) == ids.end()) {
      problems.add(table.path, row.line, column,
                   "unknown " + std::string(what) + " " + in_quotes(id) + " (" + where + ")");
    }
  }
}

void check_device_refs(const Table& table, std::string_view column,
                       const std::set<std::string, std::less<>>& device_ids, const Table& devices,
                       Problems& problems) {
  check_refs(table, column, device_ids, "device", "not an id of " + devices.path, problems);
}

void check_rentals(const Table& rentals, Problems& problems) {
  using Group = std::tuple<std::string, std::string, std::string, std::string, std::string,
                           std::string>;  // provider, device, region, date, billing, currency
  auto group_of = [&](const Row& row) {
    return Group{rentals.str(row, "provider"), rentals.str(row, "device_id"),
                 rentals.str(row, "region"),   rentals.str(row, "observed_on"),
                 rentals.str(row, "billing"),  rentals.str(row, "currency")};
  };
  auto per_device = [&](const Row& row) {
    return rentals.num(row, "amount") / rentals.num(row, "devices_per_instance");
  };
  auto usable = [&](const Row& row) {
    return rentals.ok(row, {"provider", "sku", "device_id", "devices_per_instance", "billing",
                            "term", "amount", "currency", "region", "observed_on"});
  };
  // Per group: each sku's on-demand row (the first in the file) and the dearest one, so that
  // every spot row is checked in O(log n).
  struct OnDemand {
    std::map<std::string, const Row*, std::less<>> by_sku;
    const Row* dearest = nullptr;
  };
  std::map<Group, OnDemand> on_demand;
  for (const Row& row : rentals.rows) {
    if (usable(row) && rentals.str(row, "term") == "on_demand") {
      OnDemand& group = on_demand[group_of(row)];
      group.by_sku.emplace(rentals.str(row, "sku"), &row);
      if (group.dearest == nullptr || per_device(row) > per_device(*group.dearest)) {
        group.dearest = &row;
      }
    }
  }
  for (const Row& row : rentals.rows) {
    if (!usable(row)) continue;
    const std::string& term = rentals.str(row, "term");
    if (term == "spot" && rentals.str(row, "billing") != "hourly") {
      problems.add(rentals.path, row.line, "billing", "spot offers are billed hourly");
      continue;
    }
    if (term != "spot") continue;
    auto it = on_demand.find(group_of(row));
    if (it == on_demand.end()) continue;
    // The same sku's on-demand rate when published, else the dearest on-demand rate.
    const auto same_sku = it->second.by_sku.find(rentals.str(row, "sku"));
    const Row* reference =
        same_sku != it->second.by_sku.end() ? same_sku->second : it->second.dearest;
    if (per_device(row) > per_device(*reference)) {
      problems.add(rentals.path, row.line, "amount",
                   "spot rate " + format_number(per_device(row)) + " " +
                       rentals.str(row, "currency") +
                       " per device-hour is above the on-demand rate " +
                       format_number(per_device(*reference)) + " of line " +
                       std::to_string(reference->line) + " (same provider, device, region, date)");
    }
  }
}

void check_fx(const Table& fx, Problems& problems) {
  for (const Row& row : fx.rows) {
    if (!fx.ok(row, {"base", "quote"})) continue;
    if (fx.str(row, "base") == fx.str(row, "quote")) {
      problems.add(fx.path, row.line, "quote", "must differ from base");
    }
  }
}

// comparable_model_id, when given, names a model of the catalog.
void check_api_prices(const Table& api, const std::set<std::string, std::less<>>& model_ids,
                      const std::string& where, Problems& problems) {
  for (const Row& row : api.rows) {
    if (!api.ok(row, {"comparable_model_id"})) continue;
    const std::string& id = api.str(row, "comparable_model_id");
    if (!id.empty() && model_ids.find(id) == model_ids.end()) {
      problems.add(api.path, row.line, "comparable_model_id",
                   "unknown model " + in_quotes(id) + " (" + where + "; leave it empty for none)");
    }
  }
}

// Grid intensities: at most 5000 g CO2e/kWh (coal is about 1000), a plausible averaged year.
void check_grid_carbon(const Table& grid, Problems& problems) {
  for (const Row& row : grid.rows) {
    if (grid.ok(row, {"g_co2e_per_kwh"}) && grid.num(row, "g_co2e_per_kwh") > 5000) {
      problems.add(
          grid.path, row.line, "g_co2e_per_kwh",
          "must be at most 5000 g CO2e/kWh, got " + format_number(grid.num(row, "g_co2e_per_kwh")));
    }
    if (grid.ok(row, {"data_year"})) {
      const double year = grid.num(row, "data_year");
      if (year < 1990 || year > 2100) {
        problems.add(grid.path, row.line, "data_year",
                     "must be a year between 1990 and 2100, got " + format_number(year));
      }
    }
  }
}

std::set<std::string, std::less<>> known_currencies() {
  SQLite::Database db(":memory:", SQLite::OPEN_READWRITE);
  create_catalog_schema(db, false);  // the migrations add currencies (0007: all of ISO 4217)
  std::set<std::string, std::less<>> codes;
  SQLite::Statement query(db, "SELECT code FROM currencies ORDER BY code");
  while (query.executeStep()) codes.insert(query.getColumn(0).getString());
  return codes;
}

struct LoadedData {
  std::vector<Table> tables;  // in table_specs() order; absent optional files have no rows
  std::vector<std::string> problems;
};

LoadedData load_data(const std::string& data_dir) {
  LoadedData data;
  const fs::path dir(data_dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw CatalogError(data_dir + ": not a directory");

  std::vector<std::pair<std::string_view, Problems>> by_file;
  const auto currencies = known_currencies();
  for (const TableSpec& spec : table_specs()) {
    const std::string path = (dir / spec.file).string();
    Problems problems;
    if (fs::exists(path, ec)) {
      data.tables.push_back(load_table(spec, path, currencies, problems));
    } else {
      if (spec.required) problems.add(path, 0, "file", "missing (required)");
      data.tables.push_back(Table{&spec, path, {}});
    }
    by_file.emplace_back(spec.file, std::move(problems));
  }

  auto table = [&](std::string_view file) -> Table& {
    for (Table& t : data.tables) {
      if (t.spec->file == file) return t;
    }
    throw std::logic_error("no table " + std::string(file));
  };
  auto problems_of = [&](std::string_view file) -> Problems& {
    for (auto& [name, problems] : by_file) {
      if (name == file) return problems;
    }
    throw std::logic_error("no file " + std::string(file));
  };

  for (const Table& t : data.tables) check_duplicates(t, problems_of(t.spec->file));
  check_models(table("models.csv"), problems_of("models.csv"));
  check_hf_repos(table("models.csv"), problems_of("models.csv"));
  check_figures(table("models.csv"), kModelFigures, problems_of("models.csv"));
  check_figures(table("devices.csv"), kDeviceFigures, problems_of("devices.csv"));
  std::set<std::string, std::less<>> device_ids;
  const Table& devices = table("devices.csv");
  for (const Row& row : devices.rows) {
    // A row whose id has a problem (reported already) holds no id.
    if (devices.ok(row, {"id"})) device_ids.insert(devices.str(row, "id"));
  }
  check_device_refs(table("purchase_prices.csv"), "item_id", device_ids, devices,
                    problems_of("purchase_prices.csv"));
  check_device_refs(table("rental_offers.csv"), "device_id", device_ids, devices,
                    problems_of("rental_offers.csv"));
  check_rentals(table("rental_offers.csv"), problems_of("rental_offers.csv"));
  check_fx(table("fx_rates.csv"), problems_of("fx_rates.csv"));
  check_device_refs(table("systems.csv"), "device_id", device_ids, devices,
                    problems_of("systems.csv"));
  std::set<std::string, std::less<>> system_ids;
  const Table& systems = table("systems.csv");
  for (const Row& row : systems.rows) {
    if (systems.ok(row, {"id"})) system_ids.insert(systems.str(row, "id"));
  }
  check_nvlink_domains(systems, problems_of("systems.csv"));
  check_refs(table("system_prices.csv"), "system_id", system_ids, "system",
             "not an id of " + systems.path, problems_of("system_prices.csv"));
  std::set<std::string, std::less<>> model_ids;
  const Table& models = table("models.csv");
  for (const Row& row : models.rows) {
    if (models.ok(row, {"id"})) model_ids.insert(models.str(row, "id"));
  }
  check_api_prices(table("api_prices.csv"), model_ids, "not an id of " + models.path,
                   problems_of("api_prices.csv"));
  check_grid_carbon(table("grid_carbon.csv"), problems_of("grid_carbon.csv"));

  for (auto& [name, problems] : by_file) {
    std::stable_sort(problems.items.begin(), problems.items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& item : problems.items) data.problems.push_back(std::move(item.second));
  }

  // Any other CSV is most likely a misnamed table: say so rather than ignore it.
  std::vector<std::string> strays;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".csv") continue;
    const std::string name = entry.path().filename().string();
    bool known = std::any_of(table_specs().begin(), table_specs().end(),
                             [&](const TableSpec& s) { return s.file == name; });
    if (!known) strays.push_back(entry.path().string());
  }
  if (ec) throw CatalogError(data_dir + ": cannot list directory: " + ec.message());
  std::sort(strays.begin(), strays.end());
  for (const std::string& stray : strays) {
    std::vector<std::string_view> files;
    for (const TableSpec& s : table_specs()) files.push_back(s.file);
    data.problems.push_back(stray + ":0: file: not a catalog table (expected one of " +
                            join(files, ", ") + ")");
  }
  return data;
}

void insert_rows(SQLite::Database& db, const Table& table, std::vector<std::string>& problems) {
  // Table and column names are the constants above, never data; values are bound.
  std::string columns;
  std::string params;
  for (const Column& column : table.spec->columns) {
    if (!columns.empty()) {
      columns += ", ";
      params += ", ";
    }
    columns += column.name;
    params += "?";
  }
  SQLite::Statement insert(db, "INSERT INTO " + std::string(table.spec->table) + " (" + columns +
                                   ") VALUES (" + params + ")");
  for (const Row& row : table.rows) {
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      bind_value(insert, static_cast<int>(i + 1), row.values[i]);
    }
    try {
      insert.exec();
    } catch (const SQLite::Exception& e) {
      problems.push_back(table.path + ":" + std::to_string(row.line) +
                         ": row: rejected by the database: " + e.what());
    }
    insert.reset();
    insert.clearBindings();
  }
}

}  // namespace

CatalogBuildError::CatalogBuildError(std::vector<std::string> problems)
    : CatalogError([&] {
        std::string text;
        for (const auto& p : problems) text += p + "\n";
        text += std::to_string(problems.size()) +
                (problems.size() == 1 ? " problem" : " problems") + " in the catalog data";
        return text;
      }()),
      problems_(std::move(problems)) {}

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  auto number = [&](std::size_t pos, std::size_t len) {
    int value = 0;
    std::from_chars(text.data() + pos, text.data() + pos + len, value);
    return value;
  };
  const std::chrono::year_month_day ymd{std::chrono::year{number(0, 4)},
                                        std::chrono::month{static_cast<unsigned>(number(5, 2))},
                                        std::chrono::day{static_cast<unsigned>(number(8, 2))}};
  return ymd.ok();
}

std::vector<std::string> check_catalog_data(const std::string& data_dir) {
  return load_data(data_dir).problems;
}

void build_catalog(const std::string& data_dir, const std::string& db_path) {
  LoadedData data = load_data(data_dir);
  if (!data.problems.empty()) throw CatalogBuildError(std::move(data.problems));

  const std::string tmp = db_path + ".tmp";
  std::error_code ec;
  fs::remove(tmp, ec);
  try {
    {
      SQLite::Database db(tmp, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      create_catalog_schema(db);
      std::vector<std::string> problems;
      SQLite::Transaction transaction(db);
      for (const Table& table : data.tables) insert_rows(db, table, problems);
      if (!problems.empty()) throw CatalogBuildError(std::move(problems));
      transaction.commit();
      db.exec("VACUUM");
    }
    fs::rename(tmp, db_path);
  } catch (const SQLite::Exception& e) {
    fs::remove(tmp, ec);
    throw CatalogError(db_path + ": cannot write the catalog: " + e.what());
  } catch (const fs::filesystem_error& e) {
    fs::remove(tmp, ec);
    throw CatalogError(db_path + ": cannot write the catalog: " + e.what());
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
}

void bind_value(SQLite::Statement& q, int index, const CellValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          q.bind(index);
        } else {
          q.bind(index, v);
        }
      },
      value);
}

struct PriceFileReader::Impl {
  const TableSpec* spec = nullptr;
  CsvReader* csv = nullptr;
  std::set<std::string, std::less<>> currencies;
  const std::set<std::string, std::less<>>* device_ids = nullptr;
  std::string device_list;
  std::vector<std::pair<int, std::string>>* problems = nullptr;
  std::optional<std::vector<std::size_t>> positions;
  std::size_t header_size = 0;
  std::vector<std::string> columns;
  CsvRow record;  // reused: its fields' buffers are not given back between rows
};

PriceFileReader::PriceFileReader(std::string_view file_name, CsvReader& csv, const CsvRow& header,
                                 const std::set<std::string, std::less<>>& device_ids,
                                 std::string device_list,
                                 std::vector<std::pair<int, std::string>>& problems)
    : impl_(std::make_unique<Impl>()) {
  const auto& specs = table_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const TableSpec& s) { return s.file == file_name; });
  if (spec == specs.end() ||
      (file_name != "purchase_prices.csv" && file_name != "rental_offers.csv")) {
    throw std::invalid_argument("PriceFileReader: not a price file: " + std::string(file_name));
  }
  impl_->spec = &*spec;
  impl_->csv = &csv;
  impl_->currencies = known_currencies();
  impl_->device_ids = &device_ids;
  impl_->device_list = std::move(device_list);
  impl_->problems = &problems;
  impl_->header_size = header.fields.size();
  for (const Column& column : spec->columns) impl_->columns.emplace_back(column.name);
  Problems found;
  impl_->positions = header_positions(*spec, header.fields, header.line, csv.path(), found);
  for (auto& item : found.items) problems.push_back(std::move(item));
}

PriceFileReader::~PriceFileReader() = default;

bool PriceFileReader::header_ok() const {
  return impl_->positions.has_value();
}

const std::vector<std::string>& PriceFileReader::columns() const {
  return impl_->columns;
}

bool PriceFileReader::next(CheckedRow& out) {
  Impl& in = *impl_;
  if (!in.positions) return false;
  const std::string& path = in.csv->path();
  for (;;) {
    if (!in.csv->next(in.record)) return false;
    Problems found;
    auto row =
        convert_row(*in.spec, *in.positions, in.header_size, in.record, in.currencies, path, found);
    if (row) {
      Table table;  // one row: the accessors of Table
      table.spec = in.spec;
      table.path = path;
      const bool rental = in.spec->file == "rental_offers.csv";
      const std::string_view device_column = rental ? "device_id" : "item_id";
      if (table.ok(*row, {device_column})) {
        const std::string& id = table.str(*row, device_column);
        if (in.device_ids->find(id) == in.device_ids->end()) {
          found.add(path, row->line, device_column,
                    "unknown device " + in_quotes(id) + " (" + in.device_list + ")");
          row->valid[table.index(device_column)] = false;
        }
      }
      if (rental && table.ok(*row, {"term", "billing"}) && table.str(*row, "term") == "spot" &&
          table.str(*row, "billing") != "hourly") {
        found.add(path, row->line, "billing", "spot offers are billed hourly");
        row->valid[table.index("billing")] = false;
      }
      out.line = row->line;
      out.values = std::move(row->values);
      out.ok = std::all_of(row->valid.begin(), row->valid.end(), [](bool v) { return v; });
    }
    for (auto& item : found.items) in.problems->push_back(std::move(item));
    if (row) return true;
  }
}

CheckedTable check_reference_file(std::string_view file_name, CsvTable& csv,
                                  std::vector<std::pair<int, std::string>>& problems) {
  const auto& specs = table_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const TableSpec& s) { return s.file == file_name; });
  if (spec == specs.end() || (file_name != "devices.csv" && file_name != "models.csv")) {
    throw std::invalid_argument("check_reference_file: not devices.csv or models.csv: " +
                                std::string(file_name));
  }
  Problems found;
  Table table = load_table(*spec, csv, csv.path, known_currencies(), found);
  check_duplicates(table, found);
  if (file_name == "devices.csv") {
    check_figures(table, kDeviceFigures, found);
  } else {
    check_models(table, found);
    check_hf_repos(table, found);
    check_figures(table, kModelFigures, found);
  }
  for (auto& item : found.items) problems.push_back(std::move(item));
  CheckedTable out;
  for (const Column& column : spec->columns) out.columns.emplace_back(column.name);
  for (Row& row : table.rows) {
    const bool ok = std::all_of(row.valid.begin(), row.valid.end(), [](bool v) { return v; });
    out.rows.push_back({row.line, std::move(row.values), ok});
  }
  return out;
}

std::vector<std::string> data_file_columns(std::string_view file_name) {
  for (const TableSpec& spec : table_specs()) {
    if (spec.file != file_name) continue;
    std::vector<std::string> out;
    for (const Column& column : spec.columns) out.emplace_back(column.name);
    return out;
  }
  throw std::invalid_argument("no data file " + std::string(file_name));
}

std::set<std::string, std::less<>> catalog_currencies() {
  return known_currencies();
}

}  // namespace gputco
