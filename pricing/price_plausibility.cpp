#include "pricing/price_plausibility.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <tuple>

#include "pricing/peer_median.hpp"

namespace gputco {

namespace {

std::string format_number(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

// Shortest exact form, never an exponent (9000000, not 9e+06).
std::string money(double amount, const std::string& currency) {
  std::array<char, 64> buf{};
  auto [end, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), amount, std::chars_format::fixed);
  return (ec == std::errc{} ? std::string(buf.data(), end) : std::string("?")) + " " + currency;
}

// A per-device-hour rate to 4 decimals at most (0.8303, not 0.83027397260273972).
std::string rate(double amount, const std::string& currency) {
  return money(std::round(amount * 1e4) / 1e4, currency);
}

// Days since 1970-01-01 of a date YYYY-MM-DD (the schema checks every stored date).
int day_number(const std::string& iso) {
  auto number = [&](std::size_t pos, std::size_t len) {
    int value = 0;
    std::from_chars(iso.data() + pos, iso.data() + pos + len, value);
    return value;
  };
  const std::chrono::sys_days days{std::chrono::year{number(0, 4)} /
                                   std::chrono::month{static_cast<unsigned>(number(5, 2))} /
                                   std::chrono::day{static_cast<unsigned>(number(8, 2))}};
  return static_cast<int>(days.time_since_epoch().count());
}

// "3.6 x" above, "1/3.6 of" below: the factor to one decimal.
std::string factor_text(double ratio) {
  const auto tenths = [](double x) { return format_number(std::round(x * 10) / 10); };
  return ratio >= 1 ? tenths(ratio) + " x" : "1/" + tenths(1 / ratio) + " of";
}

// One row of a group, as streamed: where it is (layer, id) and what is compared.
struct Member {
  int layer = 0;
  std::int64_t id = 0;
  int day = 0;
  double value = 0;  // per device (purchases), per device-hour (rentals)
  bool reviewed = false;
  bool selected = false;  // in the book asked about (every row when no book is given)
  char condition = 'n';   // purchases: n(ew), u(sed), r(efurbished)
};

// Streams `sql` (its first columns: group key columns, then layer, id, observed_on, value,
// reviewed, selected, condition) and calls `on_group` with each run of equal keys.
template <typename OnGroup>
void for_each_group(SQLite::Statement& q, int key_columns, OnGroup&& on_group) {
  std::vector<std::string> key;
  std::vector<std::string> next(static_cast<std::size_t>(key_columns));
  std::vector<Member> members;
  while (q.executeStep()) {
    for (int k = 0; k < key_columns; ++k)
      next[static_cast<std::size_t>(k)] = q.getColumn(k).getString();
    if (next != key && !members.empty()) {
      on_group(key, members);
      members.clear();
    }
    key = next;
    Member m;
    m.layer = q.getColumn(key_columns).getInt();
    m.id = q.getColumn(key_columns + 1).getInt64();
    m.day = day_number(q.getColumn(key_columns + 2).getString());
    m.value = q.getColumn(key_columns + 3).getDouble();
    m.reviewed = q.getColumn(key_columns + 4).getInt() != 0;
    m.selected = q.getColumn(key_columns + 5).getInt() != 0;
    const std::string condition = q.getColumn(key_columns + 6).getString();
    m.condition = condition.empty() ? 'n' : condition.front();
    members.push_back(m);
  }
  if (!members.empty()) on_group(key, members);
}

// The label of a purchase price row: "purchase price ITEM CONDITION (book B, SELLER, REGION,
// DATE)", and its amount, read back by (layer, id).
struct PriceRow {
  std::string label;
  std::string book;
  std::string observed_on;
  double amount = 0;
  std::string currency;
};
PriceRow price_row(SQLite::Statement& q, int layer, std::int64_t id) {
  q.reset();
  q.bind(1, layer);
  q.bind(2, id);
  q.executeStep();
  PriceRow r;
  r.label = "purchase price " + q.getColumn(0).getString() + " " + q.getColumn(1).getString() +
            " (book " + q.getColumn(2).getString() + ", " + q.getColumn(3).getString() + ", " +
            q.getColumn(4).getString() + ", " + q.getColumn(5).getString() + ")";
  r.book = q.getColumn(2).getString();
  r.observed_on = q.getColumn(5).getString();
  r.amount = q.getColumn(6).getDouble();
  r.currency = q.getColumn(7).getString();
  return r;
}

// The median of `values` (not empty): the mean of the two middle ones for an even count.
double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The built-in catalog's reference for a row of a user book (layer >= 1): the median of the
// built-in rows (layer 0) of its group (and, for purchases, its condition) observed within
// `window_days` of it when there are `min_rows` of them, else of every built-in row of the
// group; nullopt when the built-in catalog has fewer than `min_rows`. `near` says which.
struct Reference {
  double median = 0;
  int rows = 0;
  bool near = false;
};
std::optional<Reference> builtin_reference(const std::vector<Member>& group, const Member& m,
                                           int window_days, bool same_condition, int min_rows) {
  std::vector<double> near;
  std::vector<double> all;
  for (const Member& b : group) {
    if (b.layer != 0 || (same_condition && b.condition != m.condition)) continue;
    all.push_back(b.value);
    if (std::abs(b.day - m.day) <= window_days) near.push_back(b.value);
  }
  if (static_cast<int>(all.size()) < min_rows) return std::nullopt;
  const bool is_near = static_cast<int>(near.size()) >= min_rows;
  const std::vector<double>& used = is_near ? near : all;
  return Reference{median_of(used), static_cast<int>(used.size()), is_near};
}

// "3.2 x the built-in catalog's reference 3.85 USD (the median of its 4 on_demand offers of
// h100-sxm in USD within 183 days of it; refused beyond 3 x either way)".
std::string reference_text(double ratio, const Reference& r, const std::string& amount,
                           const std::string& what, int window_days) {
  return factor_text(ratio) + " the built-in catalog's reference " + amount +
         " (the median of its " + std::to_string(r.rows) + " " + what +
         (r.near ? " within " + std::to_string(window_days) + " days of it" : " of any date") +
         "; plausible: 1/" + format_number(Catalog::kReferenceRatio) + " to " +
         format_number(Catalog::kReferenceRatio) + " x)";
}

bool beyond_reference(double ratio) {
  return ratio > Catalog::kReferenceRatio || ratio < 1 / Catalog::kReferenceRatio;
}

// The lowest and highest purchase price of each device in each currency (every layer, any
// date, any condition): the last resort of an offer's plausibility.
struct PurchaseRange {
  double lowest = 0;
  double highest = 0;
};
std::map<std::pair<std::string, std::string>, PurchaseRange> purchase_ranges(SQLite::Database& db) {
  std::map<std::pair<std::string, std::string>, PurchaseRange> out;
  SQLite::Statement q(db,
                      "SELECT item_id, currency, min(amount), max(amount) FROM "
                      "layered_price_observations GROUP BY item_id, currency");
  while (q.executeStep()) {
    out[{q.getColumn(0).getString(), q.getColumn(1).getString()}] =
        PurchaseRange{q.getColumn(2).getDouble(), q.getColumn(3).getDouble()};
  }
  return out;
}

// At most this many new prices are listed beside a used price above all of them, and this
// many amounts of a conflict: a finding stays one readable line, however many rows it covers.
constexpr std::size_t kListedNewPrices = 3;
constexpr std::size_t kListedConflictAmounts = 5;

/// The new prices group[news[lo..hi)] as a finding lists them: the first kListedNewPrices
/// ("AMOUNT CURRENCY (book BOOK, DATE)", read through `detail`), then "and N more".
std::string new_prices_text(SQLite::Statement& detail, const std::vector<Member>& group,
                            const std::vector<std::size_t>& news, std::size_t lo, std::size_t hi) {
  std::string list;
  for (std::size_t k = lo; k < hi && k < lo + kListedNewPrices; ++k) {
    const PriceRow n = price_row(detail, group[news[k]].layer, group[news[k]].id);
    list += (list.empty() ? "" : ", ") + money(n.amount, n.currency) + " (book " + n.book + ", " +
            n.observed_on + ")";
  }
  if (hi - lo > kListedNewPrices) {
    list += " and " + std::to_string(hi - lo - kListedNewPrices) + " more";
  }
  return list;
}

/// Conflicts: one book (`book`, or every book when empty), the same item, condition, date and
/// source, different amounts; one finding each, appended to `out`.
void purchase_conflicts(SQLite::Database& db, const std::string& book,
                        std::vector<Catalog::PriceFinding>& out) {
  SQLite::Statement conflicts(
      db,
      "SELECT book, item_id, condition, observed_on, source, count(*), max(instr(note, ?1) > 0), "
      "min(layer), min(id) FROM layered_price_observations WHERE (?2 = '' OR book = ?2) "
      "GROUP BY book, item_id, condition, observed_on, source "
      "HAVING count(DISTINCT printf('%.17g %s', amount, currency)) > 1 "
      "ORDER BY book, item_id, condition, observed_on, source");
  conflicts.bind(1, Catalog::kPlausibilityReviewed);
  conflicts.bind(2, book);
  SQLite::Statement amounts(
      db,
      "SELECT DISTINCT amount, currency FROM layered_price_observations WHERE book = ?1 AND "
      "item_id = ?2 AND condition = ?3 AND observed_on = ?4 AND source = ?5 ORDER BY amount, "
      "currency");
  while (conflicts.executeStep()) {
    std::string list;
    amounts.reset();
    for (int k = 0; k < 5; ++k) amounts.bind(k + 1, conflicts.getColumn(k).getString());
    std::size_t listed = 0;
    std::size_t more = 0;
    while (amounts.executeStep()) {
      if (listed == kListedConflictAmounts) {
        ++more;
        continue;
      }
      list += (list.empty() ? "" : ", ") +
              money(amounts.getColumn(0).getDouble(), amounts.getColumn(1).getString());
      ++listed;
    }
    if (more > 0) list += " and " + std::to_string(more) + " more";
    out.push_back({"purchase price " + conflicts.getColumn(1).getString() + " " +
                       conflicts.getColumn(2).getString() + " (book " +
                       conflicts.getColumn(0).getString() + ", " +
                       conflicts.getColumn(3).getString() + ", source '" +
                       conflicts.getColumn(4).getString() +
                       "'): " + std::to_string(conflicts.getColumn(5).getInt64()) +
                       " rows with different amounts: " + list +
                       " (a plan takes the lowest amount of the latest date)",
                   conflicts.getColumn(6).getInt() != 0, conflicts.getColumn(7).getInt(),
                   conflicts.getColumn(8).getInt64(), "conflict"});
  }
}

}  // namespace

std::vector<Catalog::PriceFinding> purchase_plausibility(SQLite::Database& db,
                                                         const std::string& book) {
  using Finding = Catalog::PriceFinding;
  std::vector<Finding> out;
  SQLite::Statement rows(
      db,
      "SELECT item_id, currency, layer, id, observed_on, amount, "
      "instr(note, ?1) > 0, (?2 = '' OR book = ?2), condition FROM layered_price_observations "
      "ORDER BY item_id, currency, observed_on, condition, book, region, seller");
  rows.bind(1, Catalog::kPlausibilityReviewed);
  rows.bind(2, book);
  SQLite::Statement detail(db,
                           "SELECT item_id, condition, book, seller, region, observed_on, amount, "
                           "currency FROM layered_price_observations WHERE layer = ?1 AND id = ?2");
  for_each_group(rows, 2, [&](const std::vector<std::string>& key, std::vector<Member>& group) {
    const std::string& item = key[0];
    const std::string& currency = key[1];
    std::vector<DatedValue> values;
    values.reserve(group.size());
    for (const Member& m : group) values.push_back({m.day, m.value});
    const auto medians = medians_of_peers(values, -1, 1);
    // The new prices of the group in date order, for "used above every new price nearby".
    std::vector<std::size_t> news;
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (group[i].condition == 'n') news.push_back(i);
    }
    std::size_t lo = 0;
    std::size_t hi = 0;
    std::deque<std::size_t> dearest;  // indexes into `news` of a window, amounts decreasing
    for (std::size_t i = 0; i < group.size(); ++i) {
      const Member& m = group[i];
      // The window of new prices within kComparableDays of this row (rows come in date order).
      if (m.condition == 'u') {
        while (hi < news.size() && group[news[hi]].day <= m.day + Catalog::kComparableDays) {
          while (!dearest.empty() && group[news[dearest.back()]].value <= group[news[hi]].value) {
            dearest.pop_back();
          }
          dearest.push_back(hi++);
        }
        while (lo < hi && group[news[lo]].day < m.day - Catalog::kComparableDays) {
          if (!dearest.empty() && dearest.front() == lo) dearest.pop_front();
          ++lo;
        }
      }
      if (!m.selected) continue;
      std::optional<PriceRow> row;
      const auto read = [&]() -> const PriceRow& {
        if (!row) row = price_row(detail, m.layer, m.id);
        return *row;
      };
      bool found = false;
      if (const auto& peer = medians[i]; peer) {
        const double ratio = m.value / peer->median;
        if (ratio > Catalog::kPlausibleRatio || ratio < 1 / Catalog::kPlausibleRatio) {
          found = true;
          out.push_back({read().label + ": " + money(m.value, currency) + " is " +
                             factor_text(ratio) + " the median " + money(peer->median, currency) +
                             " of the " + std::to_string(peer->peers) + " other observation" +
                             (peer->peers == 1 ? "" : "s") + " of " + item + " in " + currency +
                             " (plausible: 1/" + format_number(Catalog::kPlausibleRatio) + " to " +
                             format_number(Catalog::kPlausibleRatio) + " x)",
                         m.reviewed, m.layer, m.id});
        }
      }
      // A book's price against the built-in catalog's for the same item and condition.
      if (const auto ref = m.layer > 0 && !found
                               ? builtin_reference(group, m, Catalog::kRentalWindowDays, true, 1)
                               : std::nullopt;
          ref && beyond_reference(m.value / ref->median)) {
        const std::string condition = m.condition == 'u'   ? "used"
                                      : m.condition == 'r' ? "refurbished"
                                                           : "new";
        out.push_back({read().label + ": " + money(m.value, currency) + " is " +
                           reference_text(m.value / ref->median, *ref, money(ref->median, currency),
                                          condition + " prices of " + item + " in " + currency,
                                          Catalog::kRentalWindowDays),
                       m.reviewed, m.layer, m.id, "reference"});
      }
      if (m.condition == 'u' && lo < hi && m.value > group[news[dearest.front()]].value) {
        out.push_back({read().label + ": used " + money(m.value, currency) +
                           " is above every new price of " + item + " within " +
                           std::to_string(Catalog::kComparableDays) +
                           " days: " + new_prices_text(detail, group, news, lo, hi),
                       m.reviewed, m.layer, m.id});
      }
    }
  });

  purchase_conflicts(db, book, out);
  return out;
}

std::vector<Catalog::PriceFinding> rental_plausibility(SQLite::Database& db,
                                                       const std::string& book) {
  std::vector<Catalog::PriceFinding> out;
  // Per device-hour: hourly amounts / devices, monthly ones / devices / 730 h.
  SQLite::Statement rows(
      db,
      "SELECT device_id, term, currency, layer, id, observed_on, amount * 1.0 / "
      "devices_per_instance / (CASE billing WHEN 'monthly' THEN ?3 ELSE 1 END), "
      "instr(note, ?1) > 0, (?2 = '' OR book = ?2), '' FROM layered_rental_offers "
      "ORDER BY device_id, term, currency, observed_on, provider, sku, billing, region, book");
  rows.bind(1, Catalog::kPlausibilityReviewed);
  rows.bind(2, book);
  rows.bind(3, Catalog::kHoursPerMonth);
  SQLite::Statement detail(db,
                           "SELECT provider, sku, billing, term, book, region, observed_on, "
                           "amount, devices_per_instance FROM layered_rental_offers WHERE "
                           "layer = ?1 AND id = ?2");
  const auto purchases = purchase_ranges(db);
  for_each_group(rows, 3, [&](const std::vector<std::string>& key, std::vector<Member>& group) {
    const std::string& device = key[0];
    const std::string& term = key[1];
    const std::string& currency = key[2];
    std::vector<DatedValue> values;
    values.reserve(group.size());
    for (const Member& m : group) values.push_back({m.day, m.value});
    const auto dated =
        medians_of_peers(values, Catalog::kRentalWindowDays, Catalog::kRentalMinPeers);
    // Too few peers near its date: the offers of the device and term of any date.
    const auto any_date = medians_of_peers(values, -1, Catalog::kRentalMinPeers);
    const auto range = purchases.find({device, currency});
    for (std::size_t i = 0; i < group.size(); ++i) {
      const Member& m = group[i];
      if (!m.selected) continue;
      // What the offer is compared with, and what it is found to be ("" when plausible).
      std::string verdict;
      std::string kind = "outlier";
      const bool near = dated[i].has_value();
      if (const auto& peer = near ? dated[i] : any_date[i]; peer) {
        const double ratio = m.value / peer->median;
        if (ratio < 1 / Catalog::kRentalPlausibleBelow || ratio > Catalog::kRentalPlausibleAbove) {
          verdict =
              factor_text(ratio) + (near ? " the dated median " : " the median ") +
              rate(peer->median, currency) + " of the " + std::to_string(peer->peers) + " other " +
              term + " offers of " + device + " in " + currency +
              (near ? " within " + std::to_string(Catalog::kRentalWindowDays) + " days"
                    : " of any date (fewer than " + std::to_string(Catalog::kRentalMinPeers) +
                          " within " + std::to_string(Catalog::kRentalWindowDays) + " days)") +
              " (plausible: 1/" + format_number(Catalog::kRentalPlausibleBelow) + " to " +
              format_number(Catalog::kRentalPlausibleAbove) + " x)";
        }
      } else if (range != purchases.end()) {
        // No market to compare with: what owning the device costs. Renting it out for three
        // years earns its price back at the lowest plausible rate; no one pays its price every
        // three months.
        const double floor = range->second.lowest / Catalog::kOwnedHours;
        const double ceiling = range->second.highest / Catalog::kPaybackHours;
        kind = "purchase";
        // Spot sells idle capacity at what it costs to run, below what owning costs: no floor.
        if (m.value < floor && term != "spot") {
          verdict = "below the lowest purchase price " + money(range->second.lowest, currency) +
                    " of " + device + " / " + format_number(Catalog::kOwnedHours) +
                    " h (3 years of hours) = " + rate(floor, currency) +
                    " (too few offers to compare with: fewer than " +
                    std::to_string(Catalog::kRentalMinPeers) + " of any date)";
        } else if (m.value > ceiling) {
          verdict = "above the highest purchase price " + money(range->second.highest, currency) +
                    " of " + device + " / " + format_number(Catalog::kPaybackHours) +
                    " h (3 months of hours) = " + rate(ceiling, currency) +
                    " (too few offers to compare with: fewer than " +
                    std::to_string(Catalog::kRentalMinPeers) + " of any date)";
        }
      }
      // A book's offer against the built-in catalog's for the same device and term.
      if (const auto ref = m.layer > 0 && verdict.empty()
                               ? builtin_reference(group, m, Catalog::kRentalWindowDays, false,
                                                   Catalog::kRentalMinPeers)
                               : std::nullopt;
          ref && beyond_reference(m.value / ref->median)) {
        kind = "reference";
        verdict = reference_text(m.value / ref->median, *ref, rate(ref->median, currency),
                                 term + " offers of " + device + " in " + currency,
                                 Catalog::kRentalWindowDays);
      }
      if (verdict.empty()) continue;
      detail.reset();
      detail.bind(1, m.layer);
      detail.bind(2, m.id);
      detail.executeStep();
      const std::string billing = detail.getColumn(2).getString();
      std::string per_hour = rate(m.value, currency) + " per device-hour";
      if (billing == "monthly") {
        per_hour += " (" + money(detail.getColumn(7).getDouble(), currency) + " a month / " +
                    std::to_string(detail.getColumn(8).getInt()) + " device(s) / " +
                    format_number(Catalog::kHoursPerMonth) + " h)";
      }
      out.push_back({"rental offer " + detail.getColumn(0).getString() + " " +
                         detail.getColumn(1).getString() + " " + billing + " " + term + " (book " +
                         detail.getColumn(4).getString() + ", " + detail.getColumn(5).getString() +
                         ", " + detail.getColumn(6).getString() + "): " + per_hour + " is " +
                         verdict,
                     m.reviewed, m.layer, m.id, kind});
    }
  });
  return out;
}

std::vector<std::string> discounted_above_on_demand(SQLite::Database& db) {
  // One group per provider, device, region, date, billing and currency; within it, the
  // on-demand rate of each sku (the upper layer's first) and the dearest one. "on_demand"
  // sorts before "reserved_1y", "reserved_3y" and "spot": every one is seen first.
  SQLite::Statement rows(
      db,
      "SELECT provider, device_id, region, observed_on, billing, currency, term, sku, book, "
      "amount * 1.0 / devices_per_instance FROM layered_rental_offers ORDER BY provider, "
      "device_id, region, observed_on, billing, currency, term, sku, layer DESC");
  using Line = std::tuple<std::string, std::string, std::string, std::string, std::string,
                          std::string>;  // provider, sku, region, date, book, text
  std::vector<Line> lines;
  std::vector<std::string> key(6);
  std::vector<std::string> next(6);
  std::map<std::string, double> on_demand;  // sku -> rate of its upper-layer row
  double dearest = 0;
  while (rows.executeStep()) {
    for (int k = 0; k < 6; ++k) next[static_cast<std::size_t>(k)] = rows.getColumn(k).getString();
    if (next != key) {
      key = next;
      on_demand.clear();
      dearest = 0;
    }
    const std::string term = rows.getColumn(6).getString();
    const std::string sku = rows.getColumn(7).getString();
    const double per_device = rows.getColumn(9).getDouble();
    if (term == "on_demand") {
      on_demand.emplace(sku, per_device);
      dearest = std::max(dearest, per_device);
      continue;
    }
    if (on_demand.empty()) continue;
    const auto same_sku = on_demand.find(sku);
    const double reference = same_sku != on_demand.end() ? same_sku->second : dearest;
    if (per_device <= reference) continue;
    const std::string book = rows.getColumn(8).getString();
    lines.emplace_back(key[0], sku, key[2], key[3], book,
                       "rental offer " + key[0] + " " + sku + " (book " + book + ", " + key[2] +
                           ", " + key[3] + "): " + term + " " + format_number(per_device) + " " +
                           key[5] + " per device-hour is above on-demand " +
                           format_number(reference) +
                           (term == "spot" ? "" : " (a commitment sells below on-demand)"));
  }
  std::sort(lines.begin(), lines.end());
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (auto& line : lines) out.push_back(std::move(std::get<5>(line)));
  return out;
}

}  // namespace gputco
