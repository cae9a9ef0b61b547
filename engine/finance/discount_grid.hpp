// The IRR scan's grid of rates and the discount factors of each, computed once per lowest rate
// and number of periods and shared by every scan over flows of that length (issue #19: a sweep
// of 1,000 values scans four savings per value, each through up to 2,001 rates, and the
// divisions that build the factors took a quarter of its CPU).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace gputco {

/// Rates internal_rate_of_return scans after the first one: 2,000, in batches of kNpvBatch.
inline constexpr int kIrrScanSteps = 2000;
/// Rates whose NPVs the scan computes at once (their additions interleaved, so the CPU
/// overlaps them; the figures are those of one rate at a time).
inline constexpr int kNpvBatch = 8;
static_assert(kIrrScanSteps % kNpvBatch == 0, "the scan takes whole batches of rates");
/// The highest rate per period the scan reaches: +1000 %.
inline constexpr double kIrrScanHighest = 10.0;

/// Rate i (0 .. kIrrScanSteps) of the scan that starts at `lowest_rate`: geometric spacing of
/// 1 + r from 1 + lowest_rate to 1 + kIrrScanHighest, equal steps in log(1 + r). Pure; the
/// same double for the same arguments.
double irr_scan_rate(double lowest_rate, int i);

/// The scan's rates from one lowest rate and, for `periods` flows, the discount factor of
/// every rate and period, each the double net_present_value reaches for it: factor 0 is 1,
/// factor m is factor m - 1 divided by (1 + rate), as net_present_value divides.
struct DiscountGrid {
  double lowest_rate = 0;
  std::size_t periods = 0;
  /// irr_scan_rate(lowest_rate, i) for i = 0 .. kIrrScanSteps.
  std::vector<double> rates;
  /// The factors of rates 1 .. kIrrScanSteps by batch of kNpvBatch rates: the factor of rate
  /// 1 + b * kNpvBatch + k at period m is at (b * periods + m) * kNpvBatch + k.
  std::vector<double> batch_factors;
};

/// The most periods a grid is made for: 121 (a horizon of ten years and month 0; 1.9 MB).
/// Longer flows are scanned dividing as they go: a sweep of the horizon to 600 months made a
/// grid of up to 9.6 MB at each value, and held 120 MB.
inline constexpr std::size_t kMostGridPeriods = 121;
/// The bytes of factors the kept grids hold at most, 4 MiB (the grid just made is kept even
/// when it alone is larger): 7 grids of a 36-month horizon, 2 of 120 months.
inline constexpr std::size_t kMostGridBytes = std::size_t{4} << 20;

/// The grid of `lowest_rate` for `periods` flows (1 .. kMostGridPeriods), made on first use
/// and kept among the most recently used (at most kMostGridBytes; thread-safe; a grid in use by one
/// thread stays valid while another makes or drops one). `lowest_rate` must be above -1 (the scan's
/// range is [-0.99, 10)). Throws std::bad_alloc only.
std::shared_ptr<const DiscountGrid> discount_grid(double lowest_rate, std::size_t periods);

/// NPVs of `flows` at the kNpvBatch rates of batch `batch` of `grid` (rates 1 + batch x
/// kNpvBatch ..), each the double net_present_value(flows, rate) gives: the same products added
/// in the same order. `flows` must have grid.periods elements.
void grid_net_present_values(const DiscountGrid& grid, const std::vector<double>& flows,
                             std::size_t batch, double (&npvs)[kNpvBatch]);

}  // namespace gputco
