// The median of an observation's peers: the other observations of the same thing (an item in
// one currency, a device and rental term), optionally only those observed near its date.
// The plausibility checks of the catalog (Catalog::price_plausibility,
// Catalog::rental_plausibility) and of prices a scenario types compare an amount with it.
#pragma once

#include <optional>
#include <vector>

namespace gputco {

/// One observation of a group: the day it was observed (any day count, e.g. days since
/// 1970-01-01) and its value (an amount per device, per device-hour, ...).
struct DatedValue {
  int day = 0;
  double value = 0;
};

/// The median of a member's peers and how many peers it was taken over.
struct PeerMedian {
  double median = 0;
  int peers = 0;
};

/// For each member i of `group` (any order; results in the same order): the median of the
/// values of the other members observed within `window_days` days of it (|day_j - day_i| <=
/// window_days), or of every other member when `window_days` is negative; nullopt when fewer
/// than `min_peers` (at least 1) others are in that window. The median of an even count is the
/// mean of the two middle values.
///
/// O(n log n) time and O(n) memory for n members: the members are taken in date order with
/// two pointers over the window, the window's values are counted in a Fenwick tree over their
/// ranks, and the median of "the window less one copy of the member's own value" is read by
/// rank (the k-th of the others is the window's k-th when k is below the member's rank, else
/// the (k+1)-th). The naive form (sort the others for every member) is O(n^2 log n): 20,000
/// rows took 14 s, 1,000,000 never finished (gputco issue 20).
std::vector<std::optional<PeerMedian>> medians_of_peers(const std::vector<DatedValue>& group,
                                                        int window_days, int min_peers);

}  // namespace gputco
