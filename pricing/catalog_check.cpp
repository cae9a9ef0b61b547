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
#include "pricing/catalog_import.hpp"
#include "pricing/catalog_schema.hpp"
#include "pricing/embedded.hpp"

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
  try {
    SQLite::Database db(path, SQLite::OPEN_READONLY);
    db.setBusyTimeout(kCatalogBusyTimeoutMs);
    return physical_problems(db, path);
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
  using Row = PriceObservation;
  const auto label = [](const Row& r) {
    return "purchase price " + r.item_id + " " + r.condition + " (book " + r.provenance.book +
           ", " + r.seller + ", " + r.region + ", " + r.provenance.observed_on + ")";
  };
  const auto reviewed = [](const Row& r) {
    return r.note.find(kPlausibilityReviewed) != std::string::npos;
  };
  const std::vector<Row> rows = price_observations();
  const auto money = [](double amount, const std::string& currency) {
    std::array<char, 64> buf{};  // shortest exact form, never an exponent (9000000, not 9e+06)
    auto [end, ec] =
        std::to_chars(buf.data(), buf.data() + buf.size(), amount, std::chars_format::fixed);
    return (ec == std::errc{} ? std::string(buf.data(), end) : std::string("?")) + " " + currency;
  };
  std::vector<PriceFinding> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (!book.empty() && r.provenance.book != book) continue;
    // Outlier against the median of the item's other observations in the same currency.
    std::vector<double> others;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      if (j != i && rows[j].item_id == r.item_id && rows[j].currency == r.currency) {
        others.push_back(rows[j].amount);
      }
    }
    if (!others.empty()) {
      std::sort(others.begin(), others.end());
      const std::size_t n = others.size();
      const double median = n % 2 == 1 ? others[n / 2] : (others[n / 2 - 1] + others[n / 2]) / 2;
      const double ratio = r.amount / median;
      if (ratio > kPlausibleRatio || ratio < 1 / kPlausibleRatio) {
        const auto tenths = [](double x) { return format_number(std::round(x * 10) / 10); };
        const std::string factor =
            ratio >= 1 ? tenths(ratio) + " x" : "1/" + tenths(1 / ratio) + " of";
        out.push_back({label(r) + ": " + money(r.amount, r.currency) + " is " + factor +
                           " the median " + money(median, r.currency) + " of the " +
                           std::to_string(n) + " other observation" + (n == 1 ? "" : "s") + " of " +
                           r.item_id + " in " + r.currency + " (plausible: 1/" +
                           format_number(kPlausibleRatio) + " to " +
                           format_number(kPlausibleRatio) + " x)",
                       reviewed(r)});
      }
    }
    // Used above every new price of the same item and currency at comparable dates.
    if (r.condition == "used") {
      std::vector<const Row*> near;
      for (const Row& n : rows) {
        if (n.condition == "new" && n.item_id == r.item_id && n.currency == r.currency &&
            std::abs(days_between(n.provenance.observed_on, r.provenance.observed_on)) <=
                kComparableDays) {
          near.push_back(&n);
        }
      }
      const bool above_all = !near.empty() && std::all_of(near.begin(), near.end(), [&](auto* n) {
        return r.amount > n->amount;
      });
      if (above_all) {
        std::string list;
        for (const Row* n : near) {
          list += (list.empty() ? "" : ", ") + money(n->amount, n->currency) + " (book " +
                  n->provenance.book + ", " + n->provenance.observed_on + ")";
        }
        out.push_back({label(r) + ": used " + money(r.amount, r.currency) +
                           " is above every new price of " + r.item_id + " within " +
                           std::to_string(kComparableDays) + " days: " + list,
                       reviewed(r)});
      }
    }
  }
  // Conflicts: one book, the same item, condition, date and source, different amounts.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>,
           std::vector<const Row*>>
      groups;
  for (const Row& r : rows) {
    if (book.empty() || r.provenance.book == book) {
      groups[{r.provenance.book, r.item_id, r.condition, r.provenance.observed_on,
              r.provenance.source}]
          .push_back(&r);
    }
  }
  for (const auto& [key, members] : groups) {
    std::set<std::pair<double, std::string>> amounts;
    bool any_reviewed = false;
    for (const Row* r : members) {
      amounts.insert({r->amount, r->currency});
      any_reviewed = any_reviewed || reviewed(*r);
    }
    if (amounts.size() < 2) continue;
    std::string list;
    for (const auto& [amount, currency] : amounts) {
      list += (list.empty() ? "" : ", ") + money(amount, currency);
    }
    const auto& [b, item, condition, observed_on, source] = key;
    out.push_back({"purchase price " + item + " " + condition + " (book " + b + ", " + observed_on +
                       ", source '" + source + "'): " + std::to_string(members.size()) +
                       " rows with different amounts: " + list +
                       " (a plan takes the lowest amount of the latest date)",
                   any_reviewed});
  }
  return out;
}

Catalog::Audit Catalog::audit(const std::string& as_of, int max_age_days) const {
  if (!as_of.empty() && !is_iso_date(as_of)) {
    throw CatalogError("as_of: '" + as_of + "' is not a date YYYY-MM-DD");
  }
  if (max_age_days < 0) throw CatalogError("max age: must be 0 days or more");
  Audit audit;
  try {
    // Spot above on-demand, every row of every layer.
    SQLite::Statement spot(
        *db_,
        "SELECT book, provider, sku, region, observed_on, currency, spot, on_demand FROM ("
        "SELECT s.book, s.provider, s.sku, s.region, s.observed_on, s.currency, "
        "s.amount * 1.0 / s.devices_per_instance AS spot, "
        "coalesce((SELECT o.amount * 1.0 / o.devices_per_instance FROM layered_rental_offers o "
        "WHERE o.term = 'on_demand' AND o.sku = s.sku AND o.provider = s.provider AND o.device_id "
        "= s.device_id AND o.region = s.region AND o.observed_on = s.observed_on AND o.billing = "
        "s.billing AND o.currency = s.currency ORDER BY o.layer DESC LIMIT 1), "
        "(SELECT max(o.amount * 1.0 / o.devices_per_instance) FROM layered_rental_offers o WHERE "
        "o.term = 'on_demand' AND o.provider = s.provider AND o.device_id = s.device_id AND "
        "o.region = s.region AND o.observed_on = s.observed_on AND o.billing = s.billing AND "
        "o.currency = s.currency)) AS on_demand FROM layered_rental_offers s "
        "WHERE s.term = 'spot') WHERE on_demand IS NOT NULL AND spot > on_demand "
        "ORDER BY provider, sku, region, observed_on, book");
    while (spot.executeStep()) {
      audit.problems.push_back(
          "rental offer " + spot.getColumn(1).getString() + " " + spot.getColumn(2).getString() +
          " (book " + spot.getColumn(0).getString() + ", " + spot.getColumn(3).getString() + ", " +
          spot.getColumn(4).getString() + "): spot " +
          format_number(spot.getColumn(6).getDouble()) + " " + spot.getColumn(5).getString() +
          " per device-hour is above on-demand " + format_number(spot.getColumn(7).getDouble()));
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

    for (const PriceFinding& f : price_plausibility()) {
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
