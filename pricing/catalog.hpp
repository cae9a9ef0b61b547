// The price catalog: devices, models, quants, dated prices, rental offers, tariffs, FX.
// The only code that speaks SQL. Dates are ISO strings "YYYY-MM-DD"; every dated lookup
// is "as of" a date: the latest observation on or before it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/hardware/hardware.hpp"
#include "engine/serving/serving_run.hpp"

namespace SQLite {
class Database;
}

namespace gputco {

/// Thrown when the catalog cannot be opened or read, or holds inconsistent data.
class CatalogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A catalog file another program holds locked (an import in progress) longer than the busy
/// timeout (kCatalogBusyTimeoutMs) allowed to wait: a runtime failure (exit 1), to be told
/// apart from a file that is not a catalog (bad input, exit 2). what() says how long it
/// waited.
class CatalogLocked : public CatalogError {
 public:
  using CatalogError::CatalogError;
};

/// A file named as a catalog that is not one this program reads: not an SQLite file, another
/// program's database, a damaged one (SQLite's NOTADB and CORRUPT), or a newer schema. Bad
/// input (exit 2) wherever it is met, to be told apart from a runtime failure on a good
/// catalog (a full disk, an I/O error: CatalogError, exit 1). what() names the file.
class CatalogFileInvalid : public CatalogError {
 public:
  using CatalogError::CatalogError;
};

/// The book of the rows compiled into gputco (pricing/data).
inline constexpr const char* kBuiltinBook = "built-in";

/// Where a catalog row came from.
struct Provenance {
  std::string source;  ///< publication, URL-less description, or "example value, no public source"
  std::string observed_on;  ///< YYYY-MM-DD
  /// The price book holding the row: kBuiltinBook, or the name a user imported it under
  /// (`gputco catalog import --book NAME`). Empty for values not read from a catalog row
  /// (an identity exchange rate).
  std::string book = {};
};

/// A purchase price of one device (or system), as observed.
struct PriceObservation {
  std::string item_id;    ///< device id
  std::string condition;  ///< "new" | "used" | "refurbished"
  double amount = 0;      ///< per unit
  std::string currency;   ///< ISO 4217, "USD" | "EUR"
  std::string region;
  std::string seller;
  Provenance provenance;
  std::string note;  ///< the row's note ("" when none), e.g. "plausibility reviewed: ..."
  /// "list" (the maker's list price, MSRP) or "street" (observed retail, used market, a quote).
  std::string price_type = "street";
};

/// A rental offer as published (per instance), with the per-device price derived.
struct RentalOffer {
  std::string provider;
  std::string sku;
  std::string device_id;
  int devices_per_instance = 1;
  std::string billing;   ///< "hourly" | "monthly"
  std::string term;      ///< "on_demand" | "spot" | "reserved_1y" | "reserved_3y"
  double amount = 0;     ///< per instance per hour (hourly) or per month (monthly)
  double setup_fee = 0;  ///< once, per instance (monthly offers)
  std::string currency;
  std::string region;
  Provenance provenance;
  /// Price per device per billing unit: amount / devices_per_instance.
  double amount_per_device() const { return amount / devices_per_instance; }
};

/// An electricity tariff.
struct Tariff {
  std::string id;  ///< e.g. "nl-business", "us-tx-commercial"
  std::string region;
  double amount_per_kwh = 0;
  std::string currency;
  std::string note;  ///< what is included (VAT, taxes), consumption band
  Provenance provenance;
};

/// A server or workstation: `device_count` devices of one kind in a host.
struct System {
  std::string id;
  std::string name;
  std::string kind;  ///< "server" | "workstation"
  std::string device_id;
  int device_count = 0;
  std::string host;         ///< CPUs, memory, chassis, as published
  double host_power_w = 0;  ///< what the host draws besides its devices, at full load
  Provenance provenance;
  /// How many of the system's devices one NVLink/NVSwitch domain joins (systems.csv
  /// nvlink_domain_gpus, migration 0008): 8 on an 8-GPU NVSwitch board, 2 for bridged pairs,
  /// 1 for PCIe only; 0 = not stated (the device's own link joins all of them, as before).
  int nvlink_domain_gpus = 0;
  std::string interconnect;  ///< the links in words, as published; "" when not stated
};

/// A dated price of a system.
struct SystemPrice {
  std::string system_id;
  std::string condition;          ///< "new" | "used" | "refurbished"
  bool includes_devices = false;  ///< true: the whole system; false: host/chassis only
  double amount = 0;
  std::string currency;
  std::string region;
  std::string seller;
  Provenance provenance;
};

/// One point of a resale curve: after `age_months`, a device fetches `fraction` of its
/// purchase price.
struct ResalePoint {
  int age_months = 0;
  double fraction = 0;
  Provenance provenance;
};

/// A hosted model's pay-per-token price (api_prices.csv), per 1,000,000 tokens in `currency`.
struct ApiPrice {
  std::string id;                   ///< e.g. "together-llama-3.3-70b"
  std::string provider;             ///< e.g. "together"
  std::string api_model;            ///< the provider's model name as called
  std::string comparable_model_id;  ///< a catalog model id, "" for none (proprietary)
  double input_per_million = 0;     ///< prompt (input) tokens
  double output_per_million = 0;    ///< generated (output) tokens
  std::optional<double> cached_input_per_million;  ///< cache-hit input; nullopt: not published
  std::string currency;
  std::optional<double> requests_per_minute;  ///< published default-tier limit; nullopt: none
  std::optional<double> tokens_per_minute;    ///< published default-tier limit; nullopt: none
  std::string note;
  Provenance provenance;
};

/// The carbon intensity of a region's electricity (grid_carbon.csv).
struct GridCarbon {
  std::string id;    ///< "nl", "eu", "us-va", or a rental region as in rental offers
  std::string name;  ///< "Netherlands", "AWS us-east-1 (Northern Virginia) -> PJM", ...
  double g_co2e_per_kwh = 0;
  int data_year = 0;  ///< the year the intensity averages
  std::string
      basis;  ///< what is counted, e.g. "location-based consumption incl. imports, lifecycle"
  std::string note;
  Provenance provenance;
};

/// base/quote = rate: 1 unit of base buys `rate` units of quote (EUR/USD 1.08).
struct FxRate {
  std::string base;
  std::string quote;
  double rate = 0;
  Provenance provenance;
};

/// Read-only view of a catalog database: the built-in catalog, a catalog file, or the built-in
/// catalog with a user database of price books layered over it (open_layered).
/// Every method throws CatalogError when the database cannot be read, and every dated
/// lookup throws CatalogError when `as_of` is not a date YYYY-MM-DD. Results are in a fixed
/// order (stated per method), never in storage or hash order. The lookups a scenario's
/// resolution makes remember their answers by their arguments (memo_): the same question is
/// answered from memory, as it was first read.
///
/// Layering: devices, models, quants and systems come from the built-in catalog, and from
/// the user database only for ids the built-in one lacks. Observations (prices, rental offers,
/// system prices, tariffs, FX rates, resale points) of both are read together: a lookup "as
/// of" a date takes the latest observation on or before it, and on the same date a price-book
/// row wins over a built-in row of the same key (between two books, the book name in byte
/// order decides). A later built-in observation wins over an older book price: date a
/// negotiated price when it was agreed, and refresh it.
class Catalog {
 public:
  /// Opens the catalog built into the binary (pricing/data/*.csv, built at compile time):
  /// an in-memory, read-only copy; nothing is read from disk. Throws CatalogError if the
  /// embedded image is unusable (a build defect).
  static Catalog open_builtin();
  /// Opens a catalog database file read-only (e.g. one written by build_catalog). Throws
  /// CatalogError, naming `path`, if it is missing, not an SQLite database, not a gputco
  /// catalog (application_id, user_version, tables), or of a newer schema version.
  static Catalog open_file(const std::string& path);
  /// Opens the built-in catalog with the user database at `user_db_path` (price books, written
  /// by import_price_book) layered over it; see the class comment. The file is only read: it is
  /// copied into memory (one consistent snapshot, even while an import writes) and, when of an
  /// older schema version, migrated in that copy. Throws CatalogError, naming the path, as
  /// open_file does.
  static Catalog open_layered(const std::string& user_db_path);

  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;
  ~Catalog();

  /// Every device, ordered by id. Empty CSV cells (no board power, unknown FP16 TFLOPS,
  /// no NVLink) come back as 0, as engine/hardware/hardware.hpp documents.
  std::vector<Device> devices() const;
  /// The device with this id, in any case ("H100-SXM" is h100-sxm; an exact match first),
  /// nullopt when there is none. The device carries the catalog's spelling of its id.
  std::optional<Device> device(const std::string& id) const;
  /// Every model architecture, ordered by id; empty optional columns come back as 0.
  std::vector<ModelArch> models() const;
  /// The model with this id in any case, or whose Hugging Face repository id (hf_repo, any
  /// case) this is: "Llama-3.3-70B" and "meta-llama/Llama-3.3-70B-Instruct" both name
  /// llama-3.3-70b. An exact id first, then an id ignoring case, then an alias. nullopt when
  /// there is none.
  std::optional<ModelArch> model(const std::string& id) const;
  /// The model known by the Hugging Face repository `repo` (models.csv hf_repo), compared
  /// without case: the repository itself (as model() finds it), or its instruction or chat
  /// tuning (ORG/NAME-Instruct, -it, -chat, -chat-hf: the same architecture); nullopt when
  /// none.
  std::optional<ModelArch> model_by_repo(const std::string& repo) const;
  /// Every quantization format, ordered by id (byte order: "F16" before "Q4_K_M").
  std::vector<Quant> quants() const;
  /// The quantization format with this id in any case ("q4_k_m" is Q4_K_M), nullopt when there
  /// is none.
  std::optional<Quant> quant(const std::string& id) const;

  /// Latest purchase price of `item_id` in `condition` observed on or before `as_of`.
  /// When several rows share the latest date: a price book's row before the built-in one
  /// (the higher layer), then the book name, then the lowest amount (amounts are compared as
  /// stored, whatever their currency; then currency, region, seller decide). Deterministic;
  /// Catalog::price_plausibility reports two amounts of one book, date and source.
  /// nullopt when nothing was observed by then.
  std::optional<PriceObservation> latest_price(const std::string& item_id,
                                               const std::string& condition,
                                               const std::string& as_of) const;
  /// Every purchase price observed on or before `as_of`, latest per (item, condition,
  /// seller, region) (a book's row wins on the same date), ordered by item id, condition,
  /// region, seller.
  std::vector<PriceObservation> prices(const std::string& as_of) const;

  /// Rental offers observed on or before `as_of`, latest per (provider, sku, billing, term,
  /// region), filtered by device/billing/term when given (empty string = any); ordered
  /// by amount per device, ascending (amounts are not converted: mind `currency`), then
  /// provider, sku, billing, term, region. Billing is part of the key because one sku can
  /// be offered both hourly and monthly. Throws CatalogError if `as_of` is not YYYY-MM-DD.
  std::vector<RentalOffer> rental_offers(const std::string& as_of,
                                         const std::string& device_id = "",
                                         const std::string& billing = "",
                                         const std::string& term = "") const;

  /// The tariff `id` (any case) as of the date (latest observation on or before it), nullopt
  /// when none.
  std::optional<Tariff> tariff(const std::string& id, const std::string& as_of) const;
  /// Every tariff as of the date, latest per id, ordered by id.
  std::vector<Tariff> tariffs(const std::string& as_of) const;

  /// The API price `id` (any case) as of the date (latest observation on or before it; on the same
  /// date the upper layer wins), nullopt when none.
  std::optional<ApiPrice> api_price(const std::string& id, const std::string& as_of) const;
  /// Every API price as of the date, latest per id, ordered by id.
  std::vector<ApiPrice> api_prices(const std::string& as_of) const;
  /// The grid carbon intensity of region `id` (any case) as of the date (latest
  /// observation on or before it), nullopt when none.
  std::optional<GridCarbon> grid_carbon(const std::string& id, const std::string& as_of) const;
  /// Every region's grid carbon intensity as of the date, latest per id, ordered by id.
  std::vector<GridCarbon> grid_carbons(const std::string& as_of) const;

  /// The user's measured serving runs (pricing/serving_runs.hpp, migration 0009), of the model
  /// `model_id` when not empty (ids compared without case), ordered by id; each run's id is
  /// "run-N". Empty for the built-in catalog.
  std::vector<MeasuredServingRun> serving_runs(const std::string& model_id = "") const;

  /// Rate to convert 1 `from` into `to` as of the date; inverts a stored quote/base rate
  /// when only that is stored; 1.0 when from == to. nullopt when unknown.
  /// When both directions are stored, the later observation wins (the stored `from`/`to`
  /// direction on the same date). An inverted rate keeps its observation date and says
  /// "(inverted from TO/FROM)" after its source; an identity rate has source "same
  /// currency" and observed_on = as_of. No cross rates through a third currency.
  std::optional<FxRate> fx_rate(const std::string& from, const std::string& to,
                                const std::string& as_of) const;

  /// Every purchase price ever observed for `item_id`, from every book, ordered by
  /// observed_on, condition, book, region, seller (no as-of filter: a price history).
  std::vector<PriceObservation> price_history(const std::string& item_id) const;

  /// Every purchase price row of every book, ordered by item_id, currency, observed_on,
  /// condition, book, region, seller (no as-of filter). Throws CatalogError.
  std::vector<PriceObservation> price_observations() const;
  /// Every rental offer ever observed for `device_id`, from every book, ordered by
  /// observed_on, provider, sku, billing, term, region, book.
  std::vector<RentalOffer> rental_history(const std::string& device_id) const;

  /// An amount of the market a typed or chosen price is compared with, in its own currency.
  struct MarketPoint {
    double amount = 0;
    std::string currency;
  };
  /// The rental market of `device_id` and `term` around `as_of`: every offer (every layer, every
  /// row, not only the latest per key) observed within kRentalWindowDays days before `as_of`
  /// or on it (`any_date`: on or before it, however old), per device-hour (monthly offers /
  /// kHoursPerMonth), ordered by amount, currency. The dated median of these is what
  /// Catalog::rental_plausibility compares an offer with; the median of any date when the
  /// window holds fewer than kRentalMinPeers.
  std::vector<MarketPoint> rental_market(const std::string& device_id, const std::string& term,
                                         const std::string& as_of, bool any_date = false) const;
  /// The purchase market of `item_id`: every observation on or before `as_of` (any condition,
  /// every layer), per device, ordered by amount, currency (Catalog::price_plausibility's peers).
  std::vector<MarketPoint> purchase_market(const std::string& item_id,
                                           const std::string& as_of) const;

  /// Every system (server, workstation), ordered by id.
  std::vector<System> systems() const;
  /// The system with this id (any case), nullopt when there is none.
  std::optional<System> system(const std::string& id) const;
  /// Latest price of system `id` in `condition` observed on or before `as_of`; a book's row
  /// wins on the same date, then whole-system prices before host-only ones, then the lowest
  /// amount (as stored). nullopt when none.
  std::optional<SystemPrice> latest_system_price(const std::string& id,
                                                 const std::string& condition,
                                                 const std::string& as_of) const;

  /// The resale curve of devices of class `device_class` (a device kind: "consumer",
  /// "workstation", "datacenter", "unified") bought in `condition`, as of the date: per age,
  /// the latest point observed on or before it; ordered by age_months. Empty when none.
  std::vector<ResalePoint> resale_curve(const std::string& device_class,
                                        const std::string& condition,
                                        const std::string& as_of) const;

  /// Names of the price books (other than the built-in one) of the layered user database,
  /// ordered by name; empty for a catalog without one.
  std::vector<std::string> books() const;

  /// Catalog schema version (PRAGMA user_version).
  int schema_version() const;

  /// The catalog's date: the newest `observed_on` of any observation of every layer
  /// (purchase, system and API prices, rentals, tariffs, FX rates, resale curves, grid
  /// carbon), YYYY-MM-DD; "" for a catalog without observations. Stamped on every JSON output
  /// so a result says how fresh its prices could be.
  std::string data_date() const;

  /// Logical checks of every row of every layer (pricing/catalog_check.cpp), each finding one
  /// line naming the row (kind, key, book, date):
  ///  - a spot or reserved (reserved_1y, reserved_3y) rate above the on-demand rate of the
  ///    same provider, device, region, date, billing and currency (the same sku's when
  ///    published, else the dearest);
  ///  - a per-device purchase, system or rental amount at or below 0.01 (kPriceFloor);
  ///  - with `as_of` (YYYY-MM-DD; empty = not checked): price-book prices and offers that a
  ///    lookup as of that date would use (latest per key) older than `max_age_days` days;
  ///  - the plausibility findings of price_plausibility() and rental_plausibility() (reviewed
  ///    ones in `notes`).
  /// Built-in rows as old are counted in `notes` (plans flag them), not in `problems`.
  /// Throws CatalogError for a bad `as_of` or a negative `max_age_days`.
  struct Audit {
    std::vector<std::string> problems;
    std::vector<std::string> notes;
  };
  Audit audit(const std::string& as_of, int max_age_days) const;

  /// One price or offer that looks wrong, and whether its row says it was checked.
  struct PriceFinding {
    std::string text;       ///< "purchase price ITEM CONDITION (book B, SELLER, REGION, DATE): ..."
    bool reviewed = false;  ///< the row's note holds kPlausibilityReviewed: kept, explained
    int layer = 0;          ///< the row's layer (0: the built-in catalog, 1: a user database)
    std::int64_t row_id = 0;  ///< the row's id in its layer's table (an import maps it to a line)
    /// "outlier" (outside the band around the median), "used above new", "purchase" (an offer
    /// without peers outside what owning the device costs), "reference" (a book's row beyond
    /// kReferenceRatio of the built-in catalog's), or "conflict" (one book, two amounts; layer
    /// and row_id are then the first row's).
    std::string kind = "outlier";
  };
  /// Plausibility of purchase prices, every layer, in `book` only when it is not empty (the
  /// others are still compared against). Amounts are compared in their own currency only:
  ///  - outlier: an amount below 1/kPlausibleRatio or above kPlausibleRatio times the median
  ///    of the other observations of the same item in the same currency (any condition, any
  ///    date, every layer; needs at least one other). A factor of 5 covers a new launch price
  ///    against a 5-year-old card's used price (RTX 3090: 1,499 vs 700, 2.1x) and street
  ///    shortages (RTX 4090 new 2,500 vs list 1,599, 1.6x), and catches a misplaced decimal or
  ///    a price per server entered per device (both 10x or more);
  ///  - used above new: a used amount above every new amount of the same item and currency
  ///    observed within kComparableDays days of it (at least one such new amount; the first
  ///    three are listed);
  ///  - conflict: one book holding two different amounts (or currencies) for the same item,
  ///    condition, date and source (plans then take the lowest, see latest_price);
  ///  - reference: a price of a user book (layer 1) below 1/kReferenceRatio or above
  ///    kReferenceRatio times the built-in catalog's reference for the same item, condition
  ///    and currency: the median of its built-in rows within kRentalWindowDays of the row, or
  ///    of all of them when none is that near (none: no verdict; offers need kRentalMinPeers
  ///    built-in rows, near or of any date, as a dated median needs peers). Not reported where
  ///    an outlier finding already names the row.
  /// A finding whose row's note contains kPlausibilityReviewed is `reviewed`. O(n log n) in
  /// the rows (pricing/price_plausibility.cpp); ordered by item, currency, date, condition,
  /// book, region, seller, then the conflicts by book, item, condition, date, source.
  std::vector<PriceFinding> price_plausibility(const std::string& book = "") const;
  /// Plausibility of rental offers, every layer, in `book` only when it is not empty: an offer
  /// per device-hour (hourly: amount / devices; monthly: amount / devices / kHoursPerMonth)
  /// below 1/kRentalPlausibleBelow or above kRentalPlausibleAbove times the dated median of
  /// the other offers of the same device and term in the same currency observed within
  /// kRentalWindowDays days of it (at least kRentalMinPeers of them); with fewer, the median of
  /// the other offers of any date (at least kRentalMinPeers); with fewer still, what owning the
  /// device costs (kind "purchase"): below the device's lowest purchase price in that currency /
  /// kOwnedHours (renting it out for three years would not earn its price back; not for spot,
  /// which sells idle capacity at what it costs to run) or above its
  /// highest / kPaybackHours (a renter would pay its price every three months); no purchase
  /// price either: no verdict (gputco issue 38: an H100 offer 3.6 x too cheap with two peers
  /// went unflagged). An offer of a user book that passes is also compared with the built-in
  /// catalog's reference (kind "reference", as for purchases, same device, term, currency).
  /// The band
  /// is the catalog's own spread widened by the public one (pricing/data/README.md,
  /// "Plausibility"): the built-in offers lie within 0.46-2.9 x their dated median, marketplace
  /// lows run about half the median and hyperscaler list rates up to 3.7 x (AWS p5 before its
  /// June 2025 cut); 1/3 to 4 x catches an H100 offer 3.6 x too cheap and a monthly price
  /// entered as hourly (730 x). O(n log n); ordered by device, term, currency, date, provider,
  /// sku, billing, region, book.
  std::vector<PriceFinding> rental_plausibility(const std::string& book = "") const;
  static constexpr double kPlausibleRatio = 5;
  /// A user book's price more than this factor off the built-in catalog's reference for the
  /// same device and term (rentals) or item and condition (purchases) is refused on import
  /// (gputco issue 38).
  static constexpr double kReferenceRatio = 3;
  /// 3 years of hours (3 x 8,760): a rental below purchase price / this cannot be meant.
  static constexpr double kOwnedHours = 3 * 8760;
  /// 3 months of hours (3 x kHoursPerMonth): a rental above purchase price / this cannot be
  /// meant.
  static constexpr double kPaybackHours = 3 * 730;
  static constexpr int kComparableDays = 92;
  static constexpr double kRentalPlausibleBelow = 3;
  static constexpr double kRentalPlausibleAbove = 4;
  static constexpr int kRentalWindowDays = 183;
  static constexpr int kRentalMinPeers = 3;
  /// Hours in a month for per-hour comparisons of monthly offers: 730 = 365 x 24 / 12, the
  /// cloud providers' month.
  static constexpr double kHoursPerMonth = 730;
  static constexpr const char* kPlausibilityReviewed = "plausibility reviewed:";

 private:
  struct Memo;
  explicit Catalog(std::unique_ptr<SQLite::Database> db);
  std::unique_ptr<SQLite::Database> db_;
  /// Answers already read by the lookups a scenario's resolution makes (device, model,
  /// model_by_repo, quant, prices, rental_offers, rental_market, purchase_market, tariff,
  /// api_price, grid_carbon, resale_curve, fx_rate), by their arguments
  /// (pricing/catalog_memo.hpp): a catalog is read-only once open, so an answer never changes;
  /// a sweep resolves up to 1,000 scenarios asking the same questions. Guarded by its own mutex
  /// (the memo itself; SQLite reads are not made concurrent by it).
  std::unique_ptr<Memo> memo_;
};

}  // namespace gputco
