// Catalog::Memo: the answers a Catalog has read, by their arguments. Internal to
// pricing/catalog.cpp (Catalog::memo_).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {

/// The answers of the lookups a scenario's resolution makes (scenarios/resolve.hpp), by their
/// arguments. A catalog is read-only once open (a file is read as it was at open, a layered
/// catalog is a copy in memory), so an answer never changes: `gputco sweep` resolves up to
/// 1,000 scenarios that ask the same questions, and reads each answer once (issue #19). The
/// lists of a whole table (devices(), prices of every item as of a date...) are read once per
/// command by the other commands and are not kept, except prices(as_of), which resolution
/// reads for every bought option. A lookup that throws keeps nothing.
struct Catalog::Memo {
  using Key2 = std::tuple<std::string, std::string>;
  using Key3 = std::tuple<std::string, std::string, std::string>;
  using Key4 = std::tuple<std::string, std::string, std::string, std::string>;

  std::map<std::string, std::optional<Device>> device;
  std::map<std::string, std::optional<ModelArch>> model;
  std::map<std::string, std::optional<ModelArch>> model_by_repo;
  std::map<std::string, std::optional<Quant>> quant;
  std::map<std::string, std::vector<PriceObservation>> prices;  ///< by as_of
  std::map<Key4, std::vector<RentalOffer>> rental_offers;       ///< as_of, device, billing, term
  std::map<Key3, std::vector<MarketPoint>> rental_market;       ///< device, term, as_of
  std::map<Key2, std::vector<MarketPoint>> purchase_market;     ///< item, as_of
  std::map<Key2, std::optional<Tariff>> tariff;                 ///< id, as_of
  std::map<Key2, std::optional<ApiPrice>> api_price;            ///< id, as_of
  std::map<Key2, std::optional<GridCarbon>> grid_carbon;        ///< id, as_of
  std::map<Key3, std::vector<ResalePoint>> resale_curve;        ///< class, condition, as_of
  std::map<Key3, std::optional<FxRate>> fx_rate;                ///< from, to, as_of

  /// The answer kept in `answers` for `key`, else read() (outside the lock: SQLite serialises
  /// its own reads) kept and returned. Two threads asking at once may both read; the first
  /// answer is kept, and both are the same. Throws what read() throws, keeping nothing.
  template <typename Map, typename Read>
  typename Map::mapped_type remembered(Map& answers, const typename Map::key_type& key,
                                       Read&& read) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (const auto found = answers.find(key); found != answers.end()) return found->second;
    }
    auto answer = read();
    const std::lock_guard<std::mutex> lock(mutex_);
    answers.emplace(key, answer);
    return answer;
  }

 private:
  std::mutex mutex_;
};

}  // namespace gputco
