// The catalog's queries: devices, models, quants, prices, rental offers, tariffs, exchange rates,
// systems, resale curves, API prices and grid intensities, each read from the layered views
// (catalog_open.cpp opens the databases and creates them); the lookups a resolution makes are
// remembered by their arguments (catalog_memo.hpp).
#include "pricing/catalog.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <utility>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_guard.hpp"
#include "pricing/catalog_memo.hpp"

namespace gputco {

namespace {

using catalog_detail::guarded;

void require_date(const std::string& as_of) {
  if (!is_iso_date(as_of)) {
    throw CatalogError("as_of: '" + as_of + "' is not a date YYYY-MM-DD");
  }
}

double real_or_zero(const SQLite::Column& column) {
  return column.isNull() ? 0.0 : column.getDouble();
}
int int_or_zero(const SQLite::Column& column) {
  return column.isNull() ? 0 : column.getInt();
}

Device read_device(SQLite::Statement& q) {
  Device d;
  d.id = q.getColumn(0).getString();
  d.name = q.getColumn(1).getString();
  const std::string vendor = q.getColumn(2).getString();
  const std::string kind = q.getColumn(3).getString();
  auto parsed_vendor = parse_vendor(vendor);
  auto parsed_kind = parse_device_kind(kind);
  if (!parsed_vendor) throw CatalogError("catalog: device " + d.id + ": unknown vendor " + vendor);
  if (!parsed_kind) throw CatalogError("catalog: device " + d.id + ": unknown kind " + kind);
  d.vendor = *parsed_vendor;
  d.kind = *parsed_kind;
  d.memory_nameplate_gb = q.getColumn(4).getDouble();
  d.memory_type = q.getColumn(5).getString();
  d.bandwidth_gbps = q.getColumn(6).getDouble();
  d.board_power_w = real_or_zero(q.getColumn(7));
  d.fp16_tflops = real_or_zero(q.getColumn(8));
  d.nvlink_gbps = real_or_zero(q.getColumn(9));
  d.fp8_tflops = real_or_zero(q.getColumn(10));
  d.fp4_tflops = real_or_zero(q.getColumn(11));
  return d;
}

constexpr const char* kDeviceColumns =
    "SELECT id, name, vendor, kind, memory_gb, memory_type, bandwidth_gbps, board_power_w, "
    "fp16_tflops, nvlink_gbps, fp8_tflops, fp4_tflops FROM layered_devices";

ModelArch read_model(SQLite::Statement& q) {
  ModelArch m;
  m.id = q.getColumn(0).getString();
  m.name = q.getColumn(1).getString();
  m.params_b = q.getColumn(2).getDouble();
  m.active_params_b = q.getColumn(3).getDouble();
  m.layers = q.getColumn(4).getInt();
  m.hidden = q.getColumn(5).getInt();
  m.heads = q.getColumn(6).getInt();
  m.kv_heads = int_or_zero(q.getColumn(7));
  m.head_dim = int_or_zero(q.getColumn(8));
  m.experts = int_or_zero(q.getColumn(9));
  m.experts_active = int_or_zero(q.getColumn(10));
  m.swa_window = int_or_zero(q.getColumn(11));
  m.swa_layers = int_or_zero(q.getColumn(12));
  m.mla_kv_lora_rank = int_or_zero(q.getColumn(13));
  m.mla_rope_dim = int_or_zero(q.getColumn(14));
  m.max_context = q.getColumn(15).getInt();
  m.vocab_size = int_or_zero(q.getColumn(16));
  m.tied_embeddings = int_or_zero(q.getColumn(17)) == 1;
  m.hf_repo = q.getColumn(18).getString();
  m.head_dim_v = int_or_zero(q.getColumn(19));
  m.max_context_scaled = int_or_zero(q.getColumn(20));
  m.layers_without_kv = int_or_zero(q.getColumn(21));
  m.recurrent_layers = int_or_zero(q.getColumn(22));
  m.recurrent_state_elements = real_or_zero(q.getColumn(23));
  return m;
}

constexpr const char* kModelColumns =
    "SELECT id, name, params_b, active_params_b, layers, hidden, heads, kv_heads, head_dim, "
    "experts, experts_active, swa_window, swa_layers, mla_kv_lora_rank, mla_rope_dim, "
    "max_context, vocab_size, tied_embeddings, hf_repo, head_dim_v, max_context_scaled, "
    "layers_without_kv, recurrent_layers, recurrent_state_elements FROM layered_models";

Quant read_quant(SQLite::Statement& q) {
  return Quant{q.getColumn(0).getString(), q.getColumn(1).getDouble(), q.getColumn(2).getString()};
}

constexpr const char* kQuantColumns = "SELECT quant, bits_per_weight, kind FROM layered_quants";

PriceObservation read_price(SQLite::Statement& q) {
  PriceObservation p;
  p.item_id = q.getColumn(0).getString();
  p.condition = q.getColumn(1).getString();
  p.amount = q.getColumn(2).getDouble();
  p.currency = q.getColumn(3).getString();
  p.region = q.getColumn(4).getString();
  p.seller = q.getColumn(5).getString();
  p.provenance = {q.getColumn(6).getString(), q.getColumn(7).getString(),
                  q.getColumn(8).getString()};
  p.note = q.getColumn(9).getString();
  p.price_type = q.getColumn(10).getString();
  return p;
}

constexpr const char* kPriceColumns =
    "item_id, condition, amount, currency, region, seller, source, observed_on, book, note, "
    "price_type";

RentalOffer read_rental(SQLite::Statement& q) {
  RentalOffer r;
  r.provider = q.getColumn(0).getString();
  r.sku = q.getColumn(1).getString();
  r.device_id = q.getColumn(2).getString();
  r.devices_per_instance = q.getColumn(3).getInt();
  r.billing = q.getColumn(4).getString();
  r.term = q.getColumn(5).getString();
  r.amount = q.getColumn(6).getDouble();
  r.setup_fee = q.getColumn(7).getDouble();
  r.currency = q.getColumn(8).getString();
  r.region = q.getColumn(9).getString();
  r.provenance = {q.getColumn(10).getString(), q.getColumn(11).getString(),
                  q.getColumn(12).getString()};
  return r;
}

constexpr const char* kRentalColumns =
    "provider, sku, device_id, devices_per_instance, billing, term, amount, setup_fee, "
    "currency, region, source, observed_on, book";

Tariff read_tariff(SQLite::Statement& q) {
  Tariff t;
  t.id = q.getColumn(0).getString();
  t.region = q.getColumn(1).getString();
  t.amount_per_kwh = q.getColumn(2).getDouble();
  t.currency = q.getColumn(3).getString();
  t.note = q.getColumn(4).getString();
  t.provenance = {q.getColumn(5).getString(), q.getColumn(6).getString(),
                  q.getColumn(7).getString()};
  return t;
}

constexpr const char* kTariffColumns =
    "id, region, amount_per_kwh, currency, note, source, observed_on, book";

System read_system(SQLite::Statement& q) {
  System s;
  s.id = q.getColumn(0).getString();
  s.name = q.getColumn(1).getString();
  s.kind = q.getColumn(2).getString();
  s.device_id = q.getColumn(3).getString();
  s.device_count = q.getColumn(4).getInt();
  s.host = q.getColumn(5).getString();
  s.host_power_w = q.getColumn(6).getDouble();
  s.provenance = {q.getColumn(7).getString(), q.getColumn(8).getString(), kBuiltinBook};
  s.nvlink_domain_gpus = q.getColumn(9).isNull() ? 0 : q.getColumn(9).getInt();
  s.interconnect = q.getColumn(10).getString();
  return s;
}

constexpr const char* kSystemColumns =
    "SELECT id, name, kind, device_id, device_count, host, host_power_w, source, observed_on, "
    "nvlink_domain_gpus, interconnect FROM layered_systems";

std::optional<double> real_or_none(const SQLite::Column& column) {
  if (column.isNull()) return std::nullopt;
  return column.getDouble();
}

ApiPrice read_api_price(SQLite::Statement& q) {
  ApiPrice a;
  a.id = q.getColumn(0).getString();
  a.provider = q.getColumn(1).getString();
  a.api_model = q.getColumn(2).getString();
  a.comparable_model_id = q.getColumn(3).getString();
  a.input_per_million = q.getColumn(4).getDouble();
  a.output_per_million = q.getColumn(5).getDouble();
  a.cached_input_per_million = real_or_none(q.getColumn(6));
  a.currency = q.getColumn(7).getString();
  a.requests_per_minute = real_or_none(q.getColumn(8));
  a.tokens_per_minute = real_or_none(q.getColumn(9));
  a.note = q.getColumn(10).getString();
  a.provenance = {q.getColumn(11).getString(), q.getColumn(12).getString(),
                  q.getColumn(13).getString()};
  return a;
}

constexpr const char* kApiPriceColumns =
    "id, provider, api_model, comparable_model_id, input_per_million, output_per_million, "
    "cached_input_per_million, currency, requests_per_minute, tokens_per_minute, note, source, "
    "observed_on, book";

GridCarbon read_grid_carbon(SQLite::Statement& q) {
  GridCarbon g;
  g.id = q.getColumn(0).getString();
  g.name = q.getColumn(1).getString();
  g.g_co2e_per_kwh = q.getColumn(2).getDouble();
  g.data_year = q.getColumn(3).getInt();
  g.basis = q.getColumn(4).getString();
  g.note = q.getColumn(5).getString();
  g.provenance = {q.getColumn(6).getString(), q.getColumn(7).getString(),
                  q.getColumn(8).getString()};
  return g;
}

constexpr const char* kGridCarbonColumns =
    "id, name, g_co2e_per_kwh, data_year, basis, note, source, observed_on, book";

/// The latest row of the layered view `view` (layered_tariffs, layered_api_prices,
/// layered_grid_carbon) for `id` (case-insensitive) observed on or before `as_of` (ISO date),
/// the top layer first at a tie, built by `read` from the columns `columns`; nullopt when
/// there is none. Throws what SQLiteCpp throws (the caller's guarded() names the lookup).
template <typename Row>
std::optional<Row> latest_as_of(SQLite::Database& db, const char* columns, const char* view,
                                const std::string& id, const std::string& as_of,
                                Row (*read)(SQLite::Statement&)) {
  SQLite::Statement q(db, std::string("SELECT ") + columns + " FROM " + view +
                              " WHERE id = ? COLLATE NOCASE AND observed_on <= ? "
                              "ORDER BY observed_on DESC, layer DESC LIMIT 1");
  q.bind(1, id);
  q.bind(2, as_of);
  if (!q.executeStep()) return std::nullopt;
  return read(q);
}

}  // namespace

std::vector<Device> Catalog::devices() const {
  return guarded("reading devices", [&] {
    SQLite::Statement q(*db_, std::string(kDeviceColumns) + " ORDER BY id");
    std::vector<Device> out;
    while (q.executeStep()) out.push_back(read_device(q));
    return out;
  });
}

std::optional<Device> Catalog::device(const std::string& id) const {
  return memo_->remembered(memo_->device, id, [&] {
    return guarded("reading a device", [&]() -> std::optional<Device> {
      // Ids ignore case; an exact match first.
      SQLite::Statement q(*db_, std::string(kDeviceColumns) +
                                    " WHERE id = ?1 COLLATE NOCASE ORDER BY id = ?1 DESC LIMIT 1");
      q.bind(1, id);
      if (!q.executeStep()) return std::nullopt;
      return read_device(q);
    });
  });
}

std::vector<ModelArch> Catalog::models() const {
  return guarded("reading models", [&] {
    SQLite::Statement q(*db_, std::string(kModelColumns) + " ORDER BY id");
    std::vector<ModelArch> out;
    while (q.executeStep()) out.push_back(read_model(q));
    return out;
  });
}

std::optional<ModelArch> Catalog::model(const std::string& id) const {
  return memo_->remembered(memo_->model, id, [&] {
    return guarded("reading a model", [&]() -> std::optional<ModelArch> {
      // The id in any case, or the Hugging Face repository id the model is known by; an exact
      // id first, then an id ignoring case, then an alias.
      SQLite::Statement q(*db_, std::string(kModelColumns) +
                                    " WHERE id = ?1 COLLATE NOCASE OR (hf_repo <> '' AND hf_repo = "
                                    "?1 COLLATE NOCASE) ORDER BY id = ?1 DESC, id = ?1 COLLATE "
                                    "NOCASE DESC, id LIMIT 1");
      q.bind(1, id);
      if (!q.executeStep()) return std::nullopt;
      return read_model(q);
    });
  });
}

std::optional<ModelArch> Catalog::model_by_repo(const std::string& repo) const {
  return memo_->remembered(memo_->model_by_repo, repo, [&]() -> std::optional<ModelArch> {
    if (auto exact = model(repo)) return exact;  // an id or an alias (hf_repo), any case
    return guarded("reading a model by repository", [&]() -> std::optional<ModelArch> {
      // The instruction or chat tuning of a catalog model's repository has its architecture.
      SQLite::Statement q(*db_,
                          "SELECT id FROM layered_models WHERE hf_repo <> '' AND lower(?1) IN "
                          "(lower(hf_repo) || '-instruct', lower(hf_repo) || '-it', lower(hf_repo) "
                          "|| '-chat', lower(hf_repo) || '-chat-hf') ORDER BY id LIMIT 1");
      q.bind(1, repo);
      if (!q.executeStep()) return std::nullopt;
      return model(q.getColumn(0).getString());
    });
  });
}

std::vector<Quant> Catalog::quants() const {
  return guarded("reading quants", [&] {
    SQLite::Statement q(*db_, std::string(kQuantColumns) + " ORDER BY quant");
    std::vector<Quant> out;
    while (q.executeStep()) out.push_back(read_quant(q));
    return out;
  });
}

std::optional<Quant> Catalog::quant(const std::string& id) const {
  return memo_->remembered(memo_->quant, id, [&] {
    return guarded("reading a quant", [&]() -> std::optional<Quant> {
      SQLite::Statement q(*db_, std::string(kQuantColumns) +
                                    " WHERE quant = ?1 COLLATE NOCASE ORDER BY quant = ?1 DESC "
                                    "LIMIT 1");
      q.bind(1, id);
      if (!q.executeStep()) return std::nullopt;
      return read_quant(q);
    });
  });
}

std::optional<PriceObservation> Catalog::latest_price(const std::string& item_id,
                                                      const std::string& condition,
                                                      const std::string& as_of) const {
  require_date(as_of);
  return guarded("reading a price", [&]() -> std::optional<PriceObservation> {
    SQLite::Statement q(*db_, std::string("SELECT ") + kPriceColumns +
                                  " FROM layered_price_observations WHERE item_id = ? AND "
                                  "condition = ? AND observed_on <= ? ORDER BY observed_on DESC, "
                                  "layer DESC, book, amount ASC, currency, region, seller LIMIT 1");
    q.bind(1, item_id);
    q.bind(2, condition);
    q.bind(3, as_of);
    if (!q.executeStep()) return std::nullopt;
    return read_price(q);
  });
}

std::vector<PriceObservation> Catalog::prices(const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->prices, as_of, [&] {
    return guarded("reading prices", [&] {
      SQLite::Statement q(
          *db_, std::string("SELECT ") + kPriceColumns +
                    " FROM (SELECT *, row_number() OVER (PARTITION BY item_id, condition, seller, "
                    "region ORDER BY observed_on DESC, layer DESC, book) AS recency FROM "
                    "layered_price_observations WHERE observed_on <= ?) WHERE recency = 1 "
                    "ORDER BY item_id, condition, region, seller");
      q.bind(1, as_of);
      std::vector<PriceObservation> out;
      while (q.executeStep()) out.push_back(read_price(q));
      return out;
    });
  });
}

std::vector<PriceObservation> Catalog::price_observations() const {
  return guarded("reading prices", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kPriceColumns +
                                  " FROM layered_price_observations ORDER BY item_id, currency, "
                                  "observed_on, condition, book, region, seller");
    std::vector<PriceObservation> out;
    while (q.executeStep()) out.push_back(read_price(q));
    return out;
  });
}

std::vector<PriceObservation> Catalog::price_history(const std::string& item_id) const {
  return guarded("reading a price history", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kPriceColumns +
                                  " FROM layered_price_observations WHERE item_id = ? "
                                  "ORDER BY observed_on, condition, book, region, seller");
    q.bind(1, item_id);
    std::vector<PriceObservation> out;
    while (q.executeStep()) out.push_back(read_price(q));
    return out;
  });
}

std::vector<RentalOffer> Catalog::rental_offers(const std::string& as_of,
                                                const std::string& device_id,
                                                const std::string& billing,
                                                const std::string& term) const {
  require_date(as_of);
  return memo_->remembered(memo_->rental_offers, {as_of, device_id, billing, term}, [&] {
    return guarded("reading rental offers", [&] {
      // Latest per key first, then the filters, so that a filter never revives an older row.
      SQLite::Statement q(
          *db_,
          std::string("SELECT ") + kRentalColumns +
              " FROM (SELECT *, row_number() OVER (PARTITION BY provider, sku, billing, term, "
              "region ORDER BY observed_on DESC, layer DESC, book) AS recency FROM "
              "layered_rental_offers WHERE observed_on <= ?1) WHERE recency = 1 AND (?2 = '' "
              "OR device_id = ?2) AND (?3 = '' OR billing = ?3) AND (?4 = '' OR term = ?4) "
              "ORDER BY amount / devices_per_instance, provider, sku, billing, term, region");
      q.bind(1, as_of);
      q.bind(2, device_id);
      q.bind(3, billing);
      q.bind(4, term);
      std::vector<RentalOffer> out;
      while (q.executeStep()) out.push_back(read_rental(q));
      return out;
    });
  });
}

std::vector<RentalOffer> Catalog::rental_history(const std::string& device_id) const {
  return guarded("reading a rental history", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kRentalColumns +
                                  " FROM layered_rental_offers WHERE device_id = ? ORDER BY "
                                  "observed_on, provider, sku, billing, term, region, book");
    q.bind(1, device_id);
    std::vector<RentalOffer> out;
    while (q.executeStep()) out.push_back(read_rental(q));
    return out;
  });
}

std::vector<Catalog::MarketPoint> Catalog::rental_market(const std::string& device_id,
                                                         const std::string& term,
                                                         const std::string& as_of,
                                                         bool any_date) const {
  require_date(as_of);
  // The memo's key keeps the window apart ("|" is in no term).
  const std::string term_key = any_date ? term + "|any date" : term;
  return memo_->remembered(memo_->rental_market, {device_id, term_key, as_of}, [&] {
    return guarded("reading the rental market", [&] {
      SQLite::Statement q(*db_,
                          "SELECT amount * 1.0 / devices_per_instance / (CASE billing WHEN "
                          "'monthly' THEN ?4 ELSE 1 END) AS per_hour, currency FROM "
                          "layered_rental_offers WHERE device_id = ?1 AND term = ?2 AND "
                          "observed_on <= ?3 AND (?6 OR observed_on >= date(?3, ?5)) "
                          "ORDER BY per_hour, currency");
      q.bind(1, device_id);
      q.bind(2, term);
      q.bind(3, as_of);
      q.bind(4, kHoursPerMonth);
      q.bind(5, "-" + std::to_string(kRentalWindowDays) + " days");
      q.bind(6, any_date ? 1 : 0);
      std::vector<MarketPoint> out;
      while (q.executeStep())
        out.push_back({q.getColumn(0).getDouble(), q.getColumn(1).getString()});
      return out;
    });
  });
}

std::vector<Catalog::MarketPoint> Catalog::purchase_market(const std::string& item_id,
                                                           const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->purchase_market, {item_id, as_of}, [&] {
    return guarded("reading the purchase market", [&] {
      SQLite::Statement q(*db_,
                          "SELECT amount, currency FROM layered_price_observations WHERE item_id = "
                          "?1 AND observed_on <= ?2 ORDER BY amount, currency");
      q.bind(1, item_id);
      q.bind(2, as_of);
      std::vector<MarketPoint> out;
      while (q.executeStep())
        out.push_back({q.getColumn(0).getDouble(), q.getColumn(1).getString()});
      return out;
    });
  });
}

std::optional<Tariff> Catalog::tariff(const std::string& id, const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->tariff, {id, as_of}, [&] {
    return guarded("reading a tariff", [&] {
      return latest_as_of(*db_, kTariffColumns, "layered_tariffs", id, as_of, read_tariff);
    });
  });
}

std::vector<Tariff> Catalog::tariffs(const std::string& as_of) const {
  require_date(as_of);
  return guarded("reading tariffs", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kTariffColumns +
                                  " FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY "
                                  "observed_on DESC, layer DESC) AS recency FROM layered_tariffs "
                                  "WHERE observed_on <= ?) WHERE recency = 1 ORDER BY id");
    q.bind(1, as_of);
    std::vector<Tariff> out;
    while (q.executeStep()) out.push_back(read_tariff(q));
    return out;
  });
}

std::optional<ApiPrice> Catalog::api_price(const std::string& id, const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->api_price, {id, as_of}, [&] {
    return guarded("reading an API price", [&] {
      return latest_as_of(*db_, kApiPriceColumns, "layered_api_prices", id, as_of, read_api_price);
    });
  });
}

std::vector<ApiPrice> Catalog::api_prices(const std::string& as_of) const {
  require_date(as_of);
  return guarded("reading API prices", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kApiPriceColumns +
                                  " FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY "
                                  "observed_on DESC, layer DESC) AS recency FROM "
                                  "layered_api_prices WHERE observed_on <= ?) WHERE recency = 1 "
                                  "ORDER BY id");
    q.bind(1, as_of);
    std::vector<ApiPrice> out;
    while (q.executeStep()) out.push_back(read_api_price(q));
    return out;
  });
}

std::optional<GridCarbon> Catalog::grid_carbon(const std::string& id,
                                               const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->grid_carbon, {id, as_of}, [&] {
    return guarded("reading a grid carbon intensity", [&] {
      return latest_as_of(*db_, kGridCarbonColumns, "layered_grid_carbon", id, as_of,
                          read_grid_carbon);
    });
  });
}

std::vector<GridCarbon> Catalog::grid_carbons(const std::string& as_of) const {
  require_date(as_of);
  return guarded("reading grid carbon intensities", [&] {
    SQLite::Statement q(*db_, std::string("SELECT ") + kGridCarbonColumns +
                                  " FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY "
                                  "observed_on DESC, layer DESC) AS recency FROM "
                                  "layered_grid_carbon WHERE observed_on <= ?) WHERE recency = 1 "
                                  "ORDER BY id");
    q.bind(1, as_of);
    std::vector<GridCarbon> out;
    while (q.executeStep()) out.push_back(read_grid_carbon(q));
    return out;
  });
}

std::optional<FxRate> Catalog::fx_rate(const std::string& from, const std::string& to,
                                       const std::string& as_of) const {
  require_date(as_of);
  if (from == to) return FxRate{from, to, 1.0, {"same currency", as_of}};
  return memo_->remembered(memo_->fx_rate, {from, to, as_of}, [&] {
    return guarded("reading an exchange rate", [&]() -> std::optional<FxRate> {
      // Both directions; the later observation wins, then the upper layer, then the stored
      // direction.
      SQLite::Statement q(*db_,
                          "SELECT base, rate, source, observed_on, book FROM layered_fx_rates "
                          "WHERE ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1)) "
                          "AND observed_on <= ?3 ORDER BY observed_on DESC, layer DESC, "
                          "base = ?1 DESC LIMIT 1");
      q.bind(1, from);
      q.bind(2, to);
      q.bind(3, as_of);
      if (!q.executeStep()) return std::nullopt;
      const bool direct = q.getColumn(0).getString() == from;
      const double rate = q.getColumn(1).getDouble();
      std::string source = q.getColumn(2).getString();
      if (!direct) source += " (inverted from " + to + "/" + from + ")";
      return FxRate{from,
                    to,
                    direct ? rate : 1.0 / rate,
                    {source, q.getColumn(3).getString(), q.getColumn(4).getString()}};
    });
  });
}

std::vector<System> Catalog::systems() const {
  return guarded("reading systems", [&] {
    SQLite::Statement q(*db_, std::string(kSystemColumns) + " ORDER BY id");
    std::vector<System> out;
    while (q.executeStep()) out.push_back(read_system(q));
    return out;
  });
}

std::optional<System> Catalog::system(const std::string& id) const {
  return guarded("reading a system", [&]() -> std::optional<System> {
    SQLite::Statement q(*db_, std::string(kSystemColumns) +
                                  " WHERE id = ?1 COLLATE NOCASE ORDER BY id = ?1 DESC LIMIT 1");
    q.bind(1, id);
    if (!q.executeStep()) return std::nullopt;
    return read_system(q);
  });
}

std::optional<SystemPrice> Catalog::latest_system_price(const std::string& id,
                                                        const std::string& condition,
                                                        const std::string& as_of) const {
  require_date(as_of);
  return guarded("reading a system price", [&]() -> std::optional<SystemPrice> {
    SQLite::Statement q(*db_,
                        "SELECT system_id, condition, includes_devices, amount, currency, region, "
                        "seller, source, observed_on, book FROM layered_system_prices WHERE "
                        "system_id = ? AND condition = ? AND observed_on <= ? ORDER BY "
                        "observed_on DESC, layer DESC, book, includes_devices DESC, amount, "
                        "currency, region, seller LIMIT 1");
    q.bind(1, id);
    q.bind(2, condition);
    q.bind(3, as_of);
    if (!q.executeStep()) return std::nullopt;
    SystemPrice p;
    p.system_id = q.getColumn(0).getString();
    p.condition = q.getColumn(1).getString();
    p.includes_devices = q.getColumn(2).getInt() == 1;
    p.amount = q.getColumn(3).getDouble();
    p.currency = q.getColumn(4).getString();
    p.region = q.getColumn(5).getString();
    p.seller = q.getColumn(6).getString();
    p.provenance = {q.getColumn(7).getString(), q.getColumn(8).getString(),
                    q.getColumn(9).getString()};
    return p;
  });
}

std::vector<ResalePoint> Catalog::resale_curve(const std::string& device_class,
                                               const std::string& condition,
                                               const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->resale_curve, {device_class, condition, as_of}, [&] {
    return guarded("reading a resale curve", [&] {
      SQLite::Statement q(
          *db_,
          "SELECT age_months, fraction, source, observed_on, book FROM (SELECT *, "
          "row_number() OVER (PARTITION BY age_months ORDER BY observed_on DESC, "
          "layer DESC) AS recency FROM layered_resale_curves WHERE device_class = ? "
          "AND condition = ? AND observed_on <= ?) WHERE recency = 1 "
          "ORDER BY age_months");
      q.bind(1, device_class);
      q.bind(2, condition);
      q.bind(3, as_of);
      std::vector<ResalePoint> out;
      while (q.executeStep()) {
        out.push_back(
            {q.getColumn(0).getInt(),
             q.getColumn(1).getDouble(),
             {q.getColumn(2).getString(), q.getColumn(3).getString(), q.getColumn(4).getString()}});
      }
      return out;
    });
  });
}

std::vector<std::string> Catalog::books() const {
  return guarded("reading books", [&] {
    SQLite::Statement q(*db_, "SELECT name FROM layered_books WHERE name <> ? ORDER BY name");
    q.bind(1, kBuiltinBook);
    std::vector<std::string> out;
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
    return out;
  });
}

}  // namespace gputco
