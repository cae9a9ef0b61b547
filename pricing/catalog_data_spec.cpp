#include "pricing/catalog_data_spec.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include "pricing/catalog_schema.hpp"

namespace gputco::catalog_table {

namespace {

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

}  // namespace

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

std::set<std::string, std::less<>> known_currencies() {
  SQLite::Database db(":memory:", SQLite::OPEN_READWRITE);
  create_catalog_schema(db, false);  // the migrations add currencies (0007: all of ISO 4217)
  std::set<std::string, std::less<>> codes;
  SQLite::Statement query(db, "SELECT code FROM currencies ORDER BY code");
  while (query.executeStep()) codes.insert(query.getColumn(0).getString());
  return codes;
}

}  // namespace gputco::catalog_table
