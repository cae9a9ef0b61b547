#include "pricing/catalog_data_checks.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/hardware/hardware.hpp"
#include "pricing/suggest.hpp"

namespace gputco::catalog_table {

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
  // every spot and reserved row is checked in O(log n).
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
    if (term == "on_demand") continue;  // spot and reserved terms sell below on-demand
    auto it = on_demand.find(group_of(row));
    if (it == on_demand.end()) continue;
    // The same sku's on-demand rate when published, else the dearest on-demand rate.
    const auto same_sku = it->second.by_sku.find(rentals.str(row, "sku"));
    const Row* reference =
        same_sku != it->second.by_sku.end() ? same_sku->second : it->second.dearest;
    if (per_device(row) > per_device(*reference)) {
      problems.add(rentals.path, row.line, "amount",
                   term + " rate " + format_number(per_device(row)) + " " +
                       rentals.str(row, "currency") +
                       " per device-hour is above the on-demand rate " +
                       format_number(per_device(*reference)) + " of line " +
                       std::to_string(reference->line) + " (same provider, device, region, date" +
                       (term == "spot" ? ")" : "; a commitment sells below on-demand)"));
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

}  // namespace gputco::catalog_table
