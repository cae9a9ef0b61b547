// Which catalog price a plan takes when the scenario gives none, and why: the price basis
// (street | list | lowest | median) and freshness before cheapness. The reason, in words, goes
// beside the choice on the Inputs sheet and in the JSON; what a reader should not miss (a
// cheaper offer passed over for being stale, a basis with no price of its kind) becomes a
// warning of the option in every report.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {

/// How to choose among catalog prices (README "Which price a plan takes").
struct PriceBasis {
  /// street: purchases: the latest observed retail (street) price (none: the list price);
  ///         rentals: the cheapest offer (offers are the prices one can rent at).
  /// list:   purchases: the latest list price (MSRP) (none: the street price); rentals: as
  ///         street (a published rate is its list price).
  /// lowest: the lowest observation of any type.
  /// median: the middle observation (the lower of the two middle ones for an even count: a real
  ///         row, with its source), by amount in the plan currency.
  std::string basis = "street";
  /// true: only observations at most max_age_days old at as_of compete when there is one.
  bool prefer_fresh = true;
  int max_age_days = 90;
  std::string as_of;  ///< YYYY-MM-DD
};

/// A chosen catalog price, the reason in words, and the warnings it deserves.
template <typename Row>
struct PriceChoice {
  Row row;
  std::string reason;
  std::vector<std::string> warnings;
};

/// Chooses a purchase price among `candidates` (the latest observation per seller and region of
/// one item and condition, on or before basis.as_of; Catalog::prices); `amount_of` gives an
/// observation's amount in the plan currency (for "lowest" and "median" and for ties). Among
/// equals: a price book's row before the built-in one, then the lower amount. nullopt when
/// there is no candidate.
std::optional<PriceChoice<PriceObservation>> choose_purchase_price(
    const std::vector<PriceObservation>& candidates, const PriceBasis& basis,
    const std::function<double(const PriceObservation&)>& amount_of);

/// Chooses a rental offer among `candidates` (offers of one device, billing and term, latest per
/// key on or before basis.as_of; Catalog::rental_offers, already filtered by provider or device
/// count); `amount_of` gives an offer's comparable amount in the plan currency (per device-hour,
/// or per month for monthly servers). `what` names the offers in the reason ("on_demand hourly
/// offers of h100-sxm"). nullopt when there is no candidate.
std::optional<PriceChoice<RentalOffer>> choose_rental_offer(
    const std::vector<RentalOffer>& candidates, const PriceBasis& basis,
    const std::function<double(const RentalOffer&)>& amount_of, const std::string& what);

/// The hourly offers a rental of `devices_per_unit` devices per unit may take, and whether
/// they are the fallback of smaller instances.
struct UnitOffers {
  std::vector<RentalOffer> offers;
  /// true: no candidate's instance holds devices_per_unit devices, so `offers` are all the
  /// candidates, each an instance of fewer devices than the unit (the caller warns).
  bool smaller_instances = false;
  int largest_instance = 0;  ///< the most devices one candidate instance holds (0: none)
};

/// The offers among `candidates` (offers of one device, billing and term) whose instance holds
/// at least `devices_per_unit` devices (docs/scenario-reference.md "Which price a plan takes"):
/// a unit of N devices is one box, its devices joined by the box's NVLink, which N instances
/// of one device are not; an instance of more devices is taken at its per-device rate (as a
/// one-device option takes one device of an 8-device offer: the catalog's rates are per
/// device). None holds the unit: every candidate, with smaller_instances set. Freshness and
/// the price basis then choose among them (choose_rental_offer): an instance size is a fact of
/// the box, a date only of the price. Never throws.
UnitOffers offers_for_unit(const std::vector<RentalOffer>& candidates, int devices_per_unit);

}  // namespace gputco
