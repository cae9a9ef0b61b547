#include "engine/finance/discount_grid.hpp"

#include <cmath>
#include <cstring>
#include <list>
#include <mutex>

#include "engine/base/error.hpp"

namespace gputco {

double irr_scan_rate(double lowest_rate, int i) {
  // As internal_rate_of_return always computed it: the same operations in the same order.
  const double lo = std::log(1.0 + lowest_rate), hi = std::log(1.0 + kIrrScanHighest);
  return std::exp(lo + (hi - lo) * i / kIrrScanSteps) - 1.0;
}

namespace {

std::shared_ptr<const DiscountGrid> make_grid(double lowest_rate, std::size_t periods) {
  auto grid = std::make_shared<DiscountGrid>();
  grid->lowest_rate = lowest_rate;
  grid->periods = periods;
  grid->rates.resize(kIrrScanSteps + 1);
  for (int i = 0; i <= kIrrScanSteps; ++i) grid->rates[i] = irr_scan_rate(lowest_rate, i);
  constexpr std::size_t batches = kIrrScanSteps / kNpvBatch;
  grid->batch_factors.resize(batches * periods * kNpvBatch);
  for (std::size_t b = 0; b < batches; ++b) {
    for (int k = 0; k < kNpvBatch; ++k) {
      // net_present_value's factor: 1, then divided by 1 + rate after each period.
      const double divisor = 1.0 + grid->rates[1 + b * kNpvBatch + k];
      double factor = 1;
      for (std::size_t m = 0; m < periods; ++m) {
        grid->batch_factors[(b * periods + m) * kNpvBatch + k] = factor;
        factor /= divisor;
      }
    }
  }
  return grid;
}

std::size_t grid_bytes(const DiscountGrid& grid) {
  return grid.batch_factors.size() * sizeof(double);
}

}  // namespace

std::shared_ptr<const DiscountGrid> discount_grid(double lowest_rate, std::size_t periods) {
  GPUTCO_REQUIRE(periods >= 1 && periods <= kMostGridPeriods, "a discount grid is made for 1 to "
                                                                  << kMostGridPeriods
                                                                  << " periods, not " << periods);
  GPUTCO_REQUIRE(lowest_rate > -1 && lowest_rate < kIrrScanHighest,
                 "the IRR scan starts above -100 %, got " << lowest_rate);
  static std::mutex mutex;
  // Most recently used first.
  static std::list<std::shared_ptr<const DiscountGrid>> kept;
  const std::lock_guard<std::mutex> lock(mutex);
  for (auto it = kept.begin(); it != kept.end(); ++it) {
    if ((*it)->lowest_rate == lowest_rate && (*it)->periods == periods) {
      kept.splice(kept.begin(), kept, it);
      return kept.front();
    }
  }
  kept.push_front(make_grid(lowest_rate, periods));
  std::size_t bytes = 0;
  for (auto it = kept.begin(); it != kept.end();) {
    bytes += grid_bytes(**it);
    if (it != kept.begin() && bytes > kMostGridBytes) {
      bytes -= grid_bytes(**it);
      it = kept.erase(it);
    } else {
      ++it;
    }
  }
  return kept.front();
}

void grid_net_present_values(const DiscountGrid& grid, const std::vector<double>& flows,
                             std::size_t batch, double (&npvs)[kNpvBatch]) {
  // Two rates to a vector (GCC and Clang vector extensions: SSE2 on x86-64, NEON on arm64):
  // each lane's product and sum are the scalar's IEEE operations, the same doubles.
  using Pair = double __attribute__((vector_size(2 * sizeof(double))));
  static_assert(kNpvBatch == 8, "four pairs of rates");
  Pair npv0 = {0, 0}, npv1 = {0, 0}, npv2 = {0, 0}, npv3 = {0, 0};
  const double* factors = grid.batch_factors.data() + batch * grid.periods * kNpvBatch;
  for (std::size_t m = 0; m < grid.periods; ++m, factors += kNpvBatch) {
    const Pair flow = {flows[m], flows[m]};
    Pair f0, f1, f2, f3;
    std::memcpy(&f0, factors, sizeof f0);
    std::memcpy(&f1, factors + 2, sizeof f1);
    std::memcpy(&f2, factors + 4, sizeof f2);
    std::memcpy(&f3, factors + 6, sizeof f3);
    npv0 += flow * f0;
    npv1 += flow * f1;
    npv2 += flow * f2;
    npv3 += flow * f3;
  }
  const Pair pairs[] = {npv0, npv1, npv2, npv3};
  for (int k = 0; k < kNpvBatch; ++k) npvs[k] = pairs[k / 2][k % 2];
}

}  // namespace gputco
