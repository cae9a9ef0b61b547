#include "pricing/catalog_check.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "pricing/catalog.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/catalog_import.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/embedded.hpp"
#include "pricing/price_plausibility.hpp"

namespace gputco {

namespace {

std::string format_number(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

std::chrono::sys_days to_days(const std::string& iso) {
  auto number = [&](std::size_t pos, std::size_t len) {
    int value = 0;
    std::from_chars(iso.data() + pos, iso.data() + pos + len, value);
    return value;
  };
  return std::chrono::sys_days{std::chrono::year{number(0, 4)} /
                               std::chrono::month{static_cast<unsigned>(number(5, 2))} /
                               std::chrono::day{static_cast<unsigned>(number(8, 2))}};
}

int days_between(const std::string& from, const std::string& to) {
  return static_cast<int>((to_days(to) - to_days(from)).count());
}

std::vector<std::string> physical_problems(SQLite::Database& db, const std::string& label) {
  std::vector<std::string> out;
  SQLite::Statement integrity(db, "PRAGMA integrity_check");
  while (integrity.executeStep()) {
    const std::string line = integrity.getColumn(0).getString();
    if (line != "ok") out.push_back(label + ": integrity: " + line);
  }
  SQLite::Statement foreign(db, "PRAGMA foreign_key_check");
  while (foreign.executeStep()) {
    out.push_back(label + ": foreign key: " + foreign.getColumn(0).getString() + " row " +
                  (foreign.getColumn(1).isNull()
                       ? std::string("?")
                       : std::to_string(foreign.getColumn(1).getInt64())) +
                  ": no " + foreign.getColumn(2).getString() + " row it refers to");
  }
  return out;
}

}  // namespace

std::vector<std::string> catalog_file_problems(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw CatalogError(path + ": cannot open catalog: no such file");
  }
  // Read-only media included; a lock is CatalogLocked (exit 1), not an integrity problem.
  const auto db = open_catalog_file_read_only(path);
  try {
    return physical_problems(*db, path);
  } catch (const SQLite::Exception& e) {
    return {path + ": integrity: " + e.what()};
  }
}

std::vector<std::string> builtin_catalog_problems() {
  try {
    auto db = open_builtin_database();
    return physical_problems(*db, "built-in catalog");
  } catch (const SQLite::Exception& e) {
    return {std::string("built-in catalog: integrity: ") + e.what()};
  }
}

std::vector<Catalog::PriceFinding> Catalog::price_plausibility(const std::string& book) const {
  try {
    return purchase_plausibility(*db_, book);
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("catalog: checking purchase prices: ") + e.what());
  }
}

std::vector<Catalog::PriceFinding> Catalog::rental_plausibility(const std::string& book) const {
  try {
    return gputco::rental_plausibility(*db_, book);
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("catalog: checking rental offers: ") + e.what());
  }
}

Catalog::Audit Catalog::audit(const std::string& as_of, int max_age_days) const {
  if (!as_of.empty() && !is_iso_date(as_of)) {
    throw CatalogError("as_of: '" + as_of + "' is not a date YYYY-MM-DD");
  }
  if (max_age_days < 0) throw CatalogError("max age: must be 0 days or more");
  Audit audit;
  try {
    // Spot and reserved above on-demand, every row of every layer.
    for (std::string& line : discounted_above_on_demand(*db_)) {
      audit.problems.push_back(std::move(line));
    }

    // Amounts at or below the floor.
    SQLite::Statement floor(
        *db_,
        "SELECT 'purchase price ' || item_id || ' ' || condition || ' (book ' || book || ', ' || "
        "seller || ', ' || region || ', ' || observed_on || ')', amount, currency "
        "FROM layered_price_observations WHERE amount <= ?1 "
        "UNION ALL SELECT 'rental offer ' || provider || ' ' || sku || ' ' || term || ' (book ' || "
        "book || ', ' || region || ', ' || observed_on || ')', amount * 1.0 / "
        "devices_per_instance, currency FROM layered_rental_offers WHERE amount * 1.0 / "
        "devices_per_instance <= ?1 "
        "UNION ALL SELECT 'system price ' || system_id || ' ' || condition || ' (book ' || book || "
        "', ' || seller || ', ' || region || ', ' || observed_on || ')', amount, currency FROM "
        "layered_system_prices WHERE amount <= ?1 ORDER BY 1");
    floor.bind(1, kPriceFloor);
    while (floor.executeStep()) {
      audit.problems.push_back(
          floor.getColumn(0).getString() + ": " + format_number(floor.getColumn(1).getDouble()) +
          " " + floor.getColumn(2).getString() + " per device is at or below the floor " +
          format_number(kPriceFloor) + " (a parsing bug's typical value)");
    }

    std::vector<PriceFinding> findings = price_plausibility();
    for (PriceFinding& f : rental_plausibility()) findings.push_back(std::move(f));
    for (const PriceFinding& f : findings) {
      if (f.reviewed) {
        audit.notes.push_back("reviewed: " + f.text);
      } else {
        audit.problems.push_back(f.text);
      }
    }

    if (as_of.empty()) {
      audit.notes.push_back("staleness not checked: give --as-of DATE");
      return audit;
    }
    // Stale: what a lookup as of the date would use, older than the limit.
    int builtin_stale = 0;
    int builtin_total = 0;
    auto stale_rows = [&](const std::string& sql, const char* kind) {
      SQLite::Statement q(*db_, sql);
      q.bind(1, as_of);
      while (q.executeStep()) {
        const std::string book = q.getColumn(0).getString();
        const std::string observed = q.getColumn(2).getString();
        const int age = days_between(observed, as_of);
        if (book == kBuiltinBook) {
          ++builtin_total;
          if (age > max_age_days) ++builtin_stale;
          continue;
        }
        if (age > max_age_days) {
          audit.problems.push_back(std::string(kind) + " " + q.getColumn(1).getString() +
                                   " (book " + book + ", " + observed +
                                   "): " + std::to_string(age) + " days old at " + as_of +
                                   ", stale after " + std::to_string(max_age_days));
        }
      }
    };
    stale_rows(
        "SELECT book, item_id || ' ' || condition || ' ' || seller || ' ' || region, observed_on "
        "FROM (SELECT *, row_number() OVER (PARTITION BY item_id, condition, seller, region ORDER "
        "BY observed_on DESC, layer DESC, book) AS recency FROM layered_price_observations WHERE "
        "observed_on <= ?1) WHERE recency = 1 ORDER BY 2, 1",
        "purchase price");
    stale_rows(
        "SELECT book, provider || ' ' || sku || ' ' || billing || ' ' || term || ' ' || region, "
        "observed_on FROM (SELECT *, row_number() OVER (PARTITION BY provider, sku, billing, "
        "term, region ORDER BY observed_on DESC, layer DESC, book) AS recency FROM "
        "layered_rental_offers WHERE observed_on <= ?1) WHERE recency = 1 ORDER BY 2, 1",
        "rental offer");
    audit.notes.push_back("built-in catalog: " + std::to_string(builtin_stale) + " of " +
                          std::to_string(builtin_total) +
                          " prices and offers in use are older than " +
                          std::to_string(max_age_days) + " days at " + as_of +
                          " (plans flag each one they use as stale)");
  } catch (const SQLite::Exception& e) {
    throw CatalogError(std::string("catalog: checking: ") + e.what());
  }
  return audit;
}

}  // namespace gputco
