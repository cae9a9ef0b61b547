// The price catalog: devices, models, quants, dated prices, rental offers, tariffs, FX.
// The only code that speaks SQL. Dates are ISO strings "YYYY-MM-DD"; every dated lookup
// is "as of" a date: the latest observation on or before it.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/hardware.hpp"

namespace SQLite {
class Database;
}

namespace gputco {

/// Thrown when the catalog cannot be opened or read, or holds inconsistent data.
class CatalogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where a catalog row came from.
struct Provenance {
  std::string source;  ///< publication, URL-less description, or "example value, no public source"
  std::string observed_on;  ///< YYYY-MM-DD
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

/// base/quote = rate: 1 unit of base buys `rate` units of quote (EUR/USD 1.08).
struct FxRate {
  std::string base;
  std::string quote;
  double rate = 0;
  Provenance provenance;
};

/// Read-only view of a catalog database.
/// Every method throws CatalogError when the database cannot be read, and every dated
/// lookup throws CatalogError when `as_of` is not a date YYYY-MM-DD. Results are in a fixed
/// order (stated per method), never in storage or hash order.
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

  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;
  ~Catalog();

  /// Every device, ordered by id. Empty CSV cells (no board power, unknown FP16 TFLOPS,
  /// no NVLink) come back as 0, as engine/hardware.hpp documents.
  std::vector<Device> devices() const;
  /// The device with this id (exact, case-sensitive), nullopt when there is none.
  std::optional<Device> device(const std::string& id) const;
  /// Every model architecture, ordered by id; empty optional columns come back as 0.
  std::vector<ModelArch> models() const;
  /// The model with this id, nullopt when there is none.
  std::optional<ModelArch> model(const std::string& id) const;
  /// Every quantization format, ordered by id (byte order: "F16" before "Q4_K_M").
  std::vector<Quant> quants() const;
  /// The quantization format with this id ("Q4_K_M"), nullopt when there is none.
  std::optional<Quant> quant(const std::string& id) const;

  /// Latest purchase price of `item_id` in `condition` observed on or before `as_of`.
  /// When several sellers/regions share the latest date, the lowest amount (amounts are
  /// compared as stored, whatever their currency; then currency, region, seller decide).
  /// nullopt when nothing was observed by then.
  std::optional<PriceObservation> latest_price(const std::string& item_id,
                                               const std::string& condition,
                                               const std::string& as_of) const;
  /// Every purchase price observed on or before `as_of`, latest per (item, condition,
  /// seller, region), ordered by item id, condition, region, seller.
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

  /// The tariff `id` as of the date (latest observation on or before it), nullopt when none.
  std::optional<Tariff> tariff(const std::string& id, const std::string& as_of) const;
  /// Every tariff as of the date, latest per id, ordered by id.
  std::vector<Tariff> tariffs(const std::string& as_of) const;

  /// Rate to convert 1 `from` into `to` as of the date; inverts a stored quote/base rate
  /// when only that is stored; 1.0 when from == to. nullopt when unknown.
  /// When both directions are stored, the later observation wins (the stored `from`/`to`
  /// direction on the same date). An inverted rate keeps its observation date and says
  /// "(inverted from TO/FROM)" after its source; an identity rate has source "same
  /// currency" and observed_on = as_of. No cross rates through a third currency.
  std::optional<FxRate> fx_rate(const std::string& from, const std::string& to,
                                const std::string& as_of) const;

  /// Catalog schema version (PRAGMA user_version).
  int schema_version() const;

 private:
  explicit Catalog(std::unique_ptr<SQLite::Database> db);
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace gputco
