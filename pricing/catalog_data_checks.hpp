// The catalog data's rules across a row's columns and across rows and files (a model's active
// parameters within its total, a spot rate under the same offer's on-demand rate, references to
// known devices and models, no duplicate keys, figures no real part has). Each check adds
// every problem it finds to `problems` with the file, line and column, and throws nothing.
// Internal to pricing/: the catalog builder and the import share them.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pricing/catalog_table.hpp"

namespace gputco::catalog_table {

/// A row's key (its table spec's key columns) as text, the columns joined by `separator`.
std::string key_text(const Table& table, const Row& row, std::string_view separator);

/// Every row whose key appeared on an earlier line ("duplicate key (...), first on line N";
/// ids ignore case where the spec says so).
void check_duplicates(const Table& table, Problems& problems);

/// models.csv's rules within a row: active_params_b <= params_b, experts_active needs and is
/// at most experts, swa_layers and layers_without_kv within layers, kv_heads unless MLA
/// (mla_kv_lora_rank), a recurrent state with recurrent layers and only with them,
/// max_context_scaled above max_context.
void check_models(const Table& models, Problems& problems);

/// models.csv's hf_repo: "owner/name", unique ignoring case, never another model's id.
void check_hf_repos(const Table& models, Problems& problems);

/// Each of `columns` that no real part has (engine figure_problem: a unit slip, such as a
/// bandwidth in GB/s written as TB/s).
void check_figures(const Table& table, const std::vector<std::string_view>& columns,
                   Problems& problems);

/// The figures of devices.csv that check_figures checks.
extern const std::vector<std::string_view> kDeviceFigures;
/// The figures of models.csv that check_figures checks.
extern const std::vector<std::string_view> kModelFigures;

/// systems.csv: a system's NVLink domain (migration 0008) joins at most device_count devices.
void check_nvlink_domains(const Table& systems, Problems& problems);

/// Each `column` value must be one of `ids`: "unknown WHAT 'ID' (WHERE)".
void check_refs(const Table& table, std::string_view column,
                const std::set<std::string, std::less<>>& ids, std::string_view what,
                const std::string& where, Problems& problems);

/// check_refs for a device id: WHERE names devices.csv's path.
void check_device_refs(const Table& table, std::string_view column,
                       const std::set<std::string, std::less<>>& device_ids, const Table& devices,
                       Problems& problems);

/// rental_offers.csv: spot offers are billed hourly, and a spot rate per device-hour is not
/// above the on-demand rate of the same provider, device, region, date, billing and currency
/// (the same sku's when published, else the dearest).
void check_rentals(const Table& rentals, Problems& problems);

/// fx_rates.csv: a rate's quote differs from its base.
void check_fx(const Table& fx, Problems& problems);

/// api_prices.csv: comparable_model_id, when given, names a model of the catalog (`model_ids`;
/// `where` names models.csv).
void check_api_prices(const Table& api, const std::set<std::string, std::less<>>& model_ids,
                      const std::string& where, Problems& problems);

/// grid_carbon.csv: at most 5000 g CO2e/kWh (coal is about 1000), a plausible averaged year.
void check_grid_carbon(const Table& grid, Problems& problems);

}  // namespace gputco::catalog_table
