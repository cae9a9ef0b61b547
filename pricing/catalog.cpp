#include "pricing/catalog.hpp"

#include <sqlite3.h>

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <utility>

#include "pricing/catalog_build.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_memo.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/embedded.hpp"

namespace gputco {

namespace {

// Tables a file must hold to be read as a catalog.
constexpr const char* kRequiredTables[] = {"meta",          "currencies", "devices",
                                           "models",        "quants",     "price_observations",
                                           "rental_offers", "tariffs",    "fx_rates"};
// Tables migrations/0002 added.
constexpr const char* kTablesOfVersion2[] = {"books", "systems", "system_prices", "resale_curves"};
// Tables migrations/0003 added.
constexpr const char* kTablesOfVersion3[] = {"api_prices", "grid_carbon"};

void require_date(const std::string& as_of) {
  if (!is_iso_date(as_of)) {
    throw CatalogError("as_of: '" + as_of + "' is not a date YYYY-MM-DD");
  }
}

// Runs `body`, turning SQLite's exceptions into CatalogError (one error type per layer).
template <typename Body>
auto guarded(const char* what, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("catalog: ") + what + ": " + e.what());
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

// ---- Layers ----------------------------------------------------------------------------------

// Schema names of the databases a catalog reads, lowest precedence first: {"main"} for one
// database, {"builtin", "main"} for the built-in catalog with a user database over it. They
// are the constants below, never data, so they may be spliced into SQL.
constexpr const char* kMainSchema = "main";
constexpr const char* kBuiltinSchema = "builtin";

// Reference tables: the first layer that has an id wins.
struct ReferenceTable {
  const char* table;
  const char* key;
};
constexpr ReferenceTable kReferenceTables[] = {
    {"devices", "id"}, {"models", "id"}, {"quants", "quant"}, {"systems", "id"}, {"books", "name"}};

// Observation tables: read together, each row with its layer (0 lowest) and book.
struct ObservationTable {
  const char* table;
  bool has_book;  // else every row counts as the built-in book's
};
constexpr ObservationTable kObservationTables[] = {
    {"price_observations", true}, {"rental_offers", true}, {"system_prices", true},
    {"tariffs", false},           {"fx_rates", false},     {"resale_curves", false},
    {"api_prices", false},        {"grid_carbon", false}};

// Creates the TEMP views layered_<table> every query reads (temp objects never touch the
// databases themselves, so this works over read-only ones).
void create_layer_views(SQLite::Database& db, const std::vector<std::string>& layers) {
  for (const auto& [table, key] : kReferenceTables) {
    std::string sql = std::string("CREATE TEMP VIEW layered_") + table + " AS ";
    std::string seen;
    for (const std::string& layer : layers) {
      if (!seen.empty()) sql += " UNION ALL ";
      sql += "SELECT * FROM " + layer + "." + table;
      if (!seen.empty()) sql += " WHERE " + std::string(key) + " NOT IN (" + seen + ")";
      seen += (seen.empty() ? "" : " UNION ") + std::string("SELECT ") + key + " FROM " + layer +
              "." + table;
    }
    db.exec(sql);
  }
  for (const auto& [table, has_book] : kObservationTables) {
    std::string sql = std::string("CREATE TEMP VIEW layered_") + table + " AS ";
    for (std::size_t i = 0; i < layers.size(); ++i) {
      if (i > 0) sql += " UNION ALL ";
      sql += "SELECT *, " + std::to_string(i) + " AS layer";
      if (!has_book) sql += std::string(", '") + kBuiltinBook + "' AS book";
      sql += " FROM " + layers[i] + "." + table;
    }
    db.exec(sql);
  }
}

// Checks that `db` holds a gputco catalog this code can read; returns what is wrong, or "".
std::string catalog_problem(SQLite::Database& db) {
  const int application_id = db.execAndGet("PRAGMA application_id").getInt();
  if (application_id != kCatalogApplicationId) {
    return "not a gputco catalog (application_id " + std::to_string(application_id) + ")";
  }
  const int version = db.execAndGet("PRAGMA user_version").getInt();
  if (version < 1) return "not a gputco catalog (schema version " + std::to_string(version) + ")";
  if (version > kCatalogSchemaVersion) {
    return "catalog schema version " + std::to_string(version) +
           " is newer than this program reads (" + std::to_string(kCatalogSchemaVersion) + ")";
  }
  SQLite::Statement has_table(db,
                              "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                              "name = ?");
  std::vector<const char*> required(std::begin(kRequiredTables), std::end(kRequiredTables));
  if (version >= 2)
    required.insert(required.end(), std::begin(kTablesOfVersion2), std::end(kTablesOfVersion2));
  if (version >= 3)
    required.insert(required.end(), std::begin(kTablesOfVersion3), std::end(kTablesOfVersion3));
  for (const char* table : required) {
    has_table.bind(1, table);
    has_table.executeStep();
    const bool present = has_table.getColumn(0).getInt() == 1;
    has_table.reset();
    if (!present) return std::string("not a gputco catalog (no table ") + table + ")";
  }
  return {};
}

// Loads the embedded built-in catalog into the (empty, in-memory) database `schema` of `db`,
// read-only unless `writable` (a private in-memory copy either way: a writer connection's
// BEGIN IMMEDIATE locks every attached database, which a read-only one refuses). `schema` is
// one of the constants above.
void deserialize_builtin(SQLite::Database& db, const char* schema, bool writable = false) {
  // SQLite frees the copy on close; the embedded bytes stay untouched in read-only memory.
  const auto size = static_cast<sqlite3_int64>(embedded::catalog_sqlite_size);
  auto* image = static_cast<unsigned char*>(sqlite3_malloc64(embedded::catalog_sqlite_size));
  if (image == nullptr) throw CatalogError("built-in catalog: out of memory");
  std::memcpy(image, embedded::catalog_sqlite, embedded::catalog_sqlite_size);
  const int rc =
      sqlite3_deserialize(db.getHandle(), schema, image, size, size,
                          writable ? SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE
                                   : SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) {
    throw CatalogError(std::string("built-in catalog: cannot load: ") + sqlite3_errstr(rc));
  }
}

// Opens the file at `path` read-only (catalog_file.hpp: read-only media and folders too) and
// checks that it is a gputco catalog this code can read (of this or an older schema
// version). Throws CatalogError naming `path`, CatalogLocked when another program holds it.
std::unique_ptr<SQLite::Database> open_checked_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: no such file");
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: not a regular file");
  }
  auto db = open_catalog_file_read_only(path);
  try {
    if (auto problem = catalog_problem(*db); !problem.empty()) {
      throw CatalogFileInvalid(path + ": " + problem);
    }
    return db;
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "not a gputco catalog", e.getErrorCode(), e.what());
  }
}

// A private in-memory copy of the catalog file `path`, migrated to the current schema.
std::unique_ptr<SQLite::Database> copy_into_memory(const std::string& path) {
  auto file = open_checked_file(path);
  try {
    auto copy = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE);
    SQLite::Backup backup(*copy, "main", *file, "main");
    backup.executeStep(-1);  // all pages, in one read transaction: a consistent snapshot
    migrate_catalog(*copy);
    return copy;
  } catch (const SQLite::Exception& e) {
    throw_catalog_file_error(path, "cannot read the catalog", e.getErrorCode(), e.what());
  }
}

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

std::unique_ptr<SQLite::Database> open_builtin_database() {
  auto db = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE);
  deserialize_builtin(*db, kMainSchema);
  return db;
}

void attach_builtin_catalog(SQLite::Database& db, bool writable) {
  db.exec(std::string("ATTACH DATABASE ':memory:' AS ") + kBuiltinSchema);
  deserialize_builtin(db, kBuiltinSchema, writable);
}

void create_layered_views(SQLite::Database& db) {
  create_layer_views(db, {kBuiltinSchema, kMainSchema});
}

Catalog::Catalog(std::unique_ptr<SQLite::Database> db)
    : db_(std::move(db)), memo_(std::make_unique<Memo>()) {}

Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
Catalog::~Catalog() = default;

Catalog Catalog::open_builtin() {
  return guarded("opening the built-in catalog", [] {
    auto db = open_builtin_database();
    if (auto problem = catalog_problem(*db); !problem.empty()) {
      throw CatalogError("built-in catalog: " + problem);
    }
    create_layer_views(*db, {kMainSchema});
    return Catalog(std::move(db));
  });
}

Catalog Catalog::open_file(const std::string& path) {
  auto db = open_checked_file(path);
  return guarded("opening a catalog file", [&] {
    if (db->execAndGet("PRAGMA user_version").getInt() < kCatalogSchemaVersion) {
      db = copy_into_memory(path);
    }
    create_layer_views(*db, {kMainSchema});
    return Catalog(std::move(db));
  });
}

Catalog Catalog::open_layered(const std::string& user_db_path) {
  auto db = copy_into_memory(user_db_path);
  return guarded("opening the layered catalog", [&] {
    attach_builtin_catalog(*db);
    create_layered_views(*db);
    return Catalog(std::move(db));
  });
}

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
                                                         const std::string& as_of) const {
  require_date(as_of);
  return memo_->remembered(memo_->rental_market, {device_id, term, as_of}, [&] {
    return guarded("reading the rental market", [&] {
      SQLite::Statement q(*db_,
                          "SELECT amount * 1.0 / devices_per_instance / (CASE billing WHEN "
                          "'monthly' THEN ?4 ELSE 1 END) AS per_hour, currency FROM "
                          "layered_rental_offers WHERE device_id = ?1 AND term = ?2 AND "
                          "observed_on <= ?3 AND observed_on >= date(?3, ?5) "
                          "ORDER BY per_hour, currency");
      q.bind(1, device_id);
      q.bind(2, term);
      q.bind(3, as_of);
      q.bind(4, kHoursPerMonth);
      q.bind(5, "-" + std::to_string(kRentalWindowDays) + " days");
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

std::string Catalog::data_date() const {
  return guarded("reading the catalog's date", [&] {
    std::string sql = "SELECT coalesce(max(d), '') FROM (";
    bool first = true;
    for (const auto& [table, has_book] : kObservationTables) {
      if (!first) sql += " UNION ALL ";
      first = false;
      sql += std::string("SELECT max(observed_on) AS d FROM layered_") + table;
    }
    return db_->execAndGet(sql + ")").getString();
  });
}

int Catalog::schema_version() const {
  return guarded("reading the schema version",
                 [&] { return db_->execAndGet("PRAGMA user_version").getInt(); });
}

}  // namespace gputco
