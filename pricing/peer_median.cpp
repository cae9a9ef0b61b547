#include "pricing/peer_median.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace gputco {

namespace {

// Counts of values by rank (1-based internally), with prefix sums and the k-th smallest.
class RankCounts {
 public:
  explicit RankCounts(std::size_t ranks) : tree_(ranks + 1, 0) {
    step_ = 1;
    while (step_ * 2 <= ranks) step_ *= 2;
  }
  void add(std::size_t rank, int delta) {
    for (std::size_t i = rank + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
  }
  // How many counted values have a rank below `rank`.
  int below(std::size_t rank) const {
    int sum = 0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  }
  // The rank of the k-th smallest counted value (0-based k < count).
  std::size_t kth(int k) const {
    std::size_t position = 0;
    int remaining = k + 1;
    for (std::size_t step = step_; step > 0; step /= 2) {
      const std::size_t next = position + step;
      if (next < tree_.size() && tree_[next] < remaining) {
        position = next;
        remaining -= tree_[next];
      }
    }
    return position;  // the 1-based index position + 1, as a 0-based rank
  }

 private:
  std::vector<int> tree_;
  std::size_t step_ = 1;
};

}  // namespace

std::vector<std::optional<PeerMedian>> medians_of_peers(const std::vector<DatedValue>& group,
                                                        int window_days, int min_peers) {
  const std::size_t n = group.size();
  std::vector<std::optional<PeerMedian>> out(n);
  if (n == 0) return out;
  min_peers = std::max(min_peers, 1);

  // Ranks of the values (equal values share a rank).
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = group[i].value;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<std::size_t> rank(n);
  for (std::size_t i = 0; i < n; ++i) {
    rank[i] = static_cast<std::size_t>(
        std::lower_bound(values.begin(), values.end(), group[i].value) - values.begin());
  }

  // Members in date order; the window [day - w, day + w] slides forward with two pointers.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return group[a].day < group[b].day; });
  const bool all = window_days < 0;
  const long long w = window_days;
  RankCounts counts(values.size());
  std::size_t lo = 0;
  std::size_t hi = 0;
  int in_window = 0;
  for (std::size_t at = 0; at < n; ++at) {
    const long long day = group[order[at]].day;
    while (hi < n && (all || group[order[hi]].day <= day + w)) {
      counts.add(rank[order[hi]], 1);
      ++in_window;
      ++hi;
    }
    while (!all && group[order[lo]].day < day - w) {
      counts.add(rank[order[lo]], -1);
      --in_window;
      ++lo;
    }
    const std::size_t i = order[at];
    const int peers = in_window - 1;
    if (peers < min_peers) continue;
    // The k-th of the others: one copy of the member's own value taken out at its position.
    const int own_position = counts.below(rank[i]);
    const auto other = [&](int k) { return values[counts.kth(k < own_position ? k : k + 1)]; };
    const double median =
        peers % 2 == 1 ? other(peers / 2) : (other(peers / 2 - 1) + other(peers / 2)) / 2;
    out[i] = PeerMedian{median, peers};
  }
  return out;
}

}  // namespace gputco
