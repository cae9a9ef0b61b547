#include "scenarios/price_choice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "scenarios/dates.hpp"

namespace gputco {

namespace {

bool from_book(const Provenance& p) {
  return !p.book.empty() && p.book != kBuiltinBook;
}

std::string days_text(int days) {
  return std::to_string(days) + (days == 1 ? " day" : " days");
}

// The candidates a choice looks at: the fresh ones when asked and there are some, else all;
// `pool_reason` says which.
template <typename Row>
std::vector<const Row*> pool_of(const std::vector<Row>& candidates, const PriceBasis& basis,
                                std::string& pool_reason) {
  std::vector<const Row*> fresh;
  std::vector<const Row*> all;
  for (const Row& row : candidates) {
    all.push_back(&row);
    if (days_between(row.provenance.observed_on, basis.as_of) <= basis.max_age_days) {
      fresh.push_back(&row);
    }
  }
  const std::string limit = std::to_string(basis.max_age_days) + " days of " + basis.as_of;
  if (!basis.prefer_fresh) {
    pool_reason = "prefer_fresh_prices = false: fresh and stale alike";
    return all;
  }
  if (!fresh.empty()) {
    pool_reason = std::to_string(fresh.size()) + " of " + std::to_string(all.size()) +
                  " observed within " + limit;
    return fresh;
  }
  pool_reason =
      "none observed within " + limit + ": all " + std::to_string(all.size()) + " (stale)";
  return all;
}

// The cheapest row of `rows` in the plan currency (ties: a book's row first, then the order
// of `rows`), or the middle one for "median".
template <typename Row>
const Row* pick(std::vector<const Row*> rows, bool median,
                const std::function<double(const Row&)>& amount_of) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row* a, const Row* b) {
    const double x = amount_of(*a);
    const double y = amount_of(*b);
    if (x != y) return x < y;
    return from_book(a->provenance) && !from_book(b->provenance);
  });
  if (rows.empty()) return nullptr;
  return median ? rows[(rows.size() - 1) / 2] : rows.front();
}

// The cheaper stale candidates a fresh choice passed over, as a warning (the cheapest one).
template <typename Row, typename Describe>
void passed_over(const std::vector<Row>& candidates, const Row& chosen, const PriceBasis& basis,
                 const std::function<double(const Row&)>& amount_of, Describe describe,
                 std::vector<std::string>& warnings) {
  if (!basis.prefer_fresh) return;
  if (days_between(chosen.provenance.observed_on, basis.as_of) > basis.max_age_days) return;
  const Row* cheapest = nullptr;
  for (const Row& row : candidates) {
    if (days_between(row.provenance.observed_on, basis.as_of) <= basis.max_age_days) continue;
    if (amount_of(row) >= amount_of(chosen)) continue;
    if (cheapest == nullptr || amount_of(row) < amount_of(*cheapest)) cheapest = &row;
  }
  if (cheapest == nullptr) return;
  warnings.push_back("a cheaper catalog price, " + describe(*cheapest) + " observed " +
                     cheapest->provenance.observed_on + " (" +
                     days_text(days_between(cheapest->provenance.observed_on, basis.as_of)) +
                     " old at " + basis.as_of +
                     "), is older than max_price_age_days = " + std::to_string(basis.max_age_days) +
                     " and was not chosen over a fresh one (prefer_fresh_prices = false takes "
                     "it)");
}

}  // namespace

std::optional<PriceChoice<PriceObservation>> choose_purchase_price(
    const std::vector<PriceObservation>& candidates, const PriceBasis& basis,
    const std::function<double(const PriceObservation&)>& amount_of) {
  std::string pool_reason;
  const std::vector<const PriceObservation*> pool = pool_of(candidates, basis, pool_reason);
  if (pool.empty()) return std::nullopt;
  PriceChoice<PriceObservation> choice;
  const PriceObservation* chosen = nullptr;
  if (basis.basis == "street" || basis.basis == "list") {
    // The latest observation of that type (a book's before the built-in one, then the lower
    // amount); none of that type: the latest of the other type, and the reason says so.
    const auto latest_of = [&](const std::string& type) -> const PriceObservation* {
      std::vector<const PriceObservation*> rows;
      std::string latest;
      for (const PriceObservation* p : pool) {
        if (p->price_type != type) continue;
        if (p->provenance.observed_on > latest) {
          latest = p->provenance.observed_on;
          rows.clear();
        }
        if (p->provenance.observed_on == latest) rows.push_back(p);
      }
      return pick(rows, false, amount_of);
    };
    const std::string other = basis.basis == "street" ? "list" : "street";
    chosen = latest_of(basis.basis);
    std::string why = "the latest " + basis.basis + " price";
    if (chosen == nullptr) {
      chosen = latest_of(other);
      why = "no " + basis.basis + " price: the latest " + other + " price";
      choice.warnings.push_back("price_basis = " + basis.basis + ": the catalog has no " +
                                basis.basis + " price of this item in the prices considered (" +
                                pool_reason + "); the " + other + " price of " +
                                chosen->provenance.observed_on + " was taken");
    }
    choice.reason = why + " (price_basis = " + basis.basis + "; " + pool_reason + ")";
  } else {
    const bool median = basis.basis == "median";
    chosen = pick(pool, median, amount_of);
    choice.reason = std::string(median ? "the middle (median) of " : "the lowest of ") +
                    std::to_string(pool.size()) + " prices (price_basis = " + basis.basis + "; " +
                    pool_reason + ")";
  }
  choice.row = *chosen;
  int same_latest = 0;
  for (const PriceObservation* p : pool) {
    same_latest += p->provenance.observed_on == chosen->provenance.observed_on &&
                   p->price_type == chosen->price_type;
  }
  if (same_latest > 1 && (basis.basis == "street" || basis.basis == "list")) {
    choice.reason +=
        fmt::format("; of {} {} prices observed on {}: {}", same_latest, chosen->price_type,
                    chosen->provenance.observed_on,
                    from_book(chosen->provenance) ? "the price book's first" : "the lowest");
  }
  passed_over<PriceObservation>(
      candidates, *chosen, basis, amount_of,
      [](const PriceObservation& p) {
        return fmt::format("{} {} {} ({}, {})", p.amount, p.currency, p.price_type, p.seller,
                           p.region);
      },
      choice.warnings);
  return choice;
}

std::optional<PriceChoice<RentalOffer>> choose_rental_offer(
    const std::vector<RentalOffer>& candidates, const PriceBasis& basis,
    const std::function<double(const RentalOffer&)>& amount_of, const std::string& what) {
  std::string pool_reason;
  const std::vector<const RentalOffer*> pool = pool_of(candidates, basis, pool_reason);
  if (pool.empty()) return std::nullopt;
  const bool median = basis.basis == "median";
  const RentalOffer* chosen = pick(pool, median, amount_of);
  PriceChoice<RentalOffer> choice;
  choice.row = *chosen;
  choice.reason = std::string(median ? "the middle (median) of " : "the cheapest of ") +
                  std::to_string(pool.size()) + " " + what + " (price_basis = " + basis.basis +
                  (basis.basis == "street" || basis.basis == "list"
                       ? ": a published rate is both the list and the street price"
                       : "") +
                  "; " + pool_reason + ")";
  passed_over<RentalOffer>(
      candidates, *chosen, basis, amount_of,
      [](const RentalOffer& r) {
        return fmt::format("{} {} at {} {}", r.provider, r.sku, r.amount, r.currency);
      },
      choice.warnings);
  return choice;
}

UnitOffers offers_for_unit(const std::vector<RentalOffer>& candidates, int devices_per_unit) {
  UnitOffers out;
  for (const RentalOffer& offer : candidates) {
    out.largest_instance = std::max(out.largest_instance, offer.devices_per_instance);
    if (offer.devices_per_instance >= devices_per_unit) out.offers.push_back(offer);
  }
  if (out.offers.empty() && !candidates.empty()) {
    out.offers = candidates;
    out.smaller_instances = true;
  }
  return out;
}

}  // namespace gputco
