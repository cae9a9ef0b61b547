// The Monte Carlo's building blocks: uniform numbers from a standard generator, our own
// transforms into distributions, and quantiles. Separate so they can be tested on their own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/plan/sensitivity.hpp"

namespace gputco::risk {

/// A uniform number in [0, 1) from the top 53 bits of one 64-bit output: (x >> 11) x 2^-53.
/// Every value is a multiple of 2^-53, so the same generator state gives the same double on
/// every platform (std::uniform_real_distribution leaves its algorithm to the library).
double uniform01(std::mt19937_64& generator);

/// Triangular on [low, high] with its peak at mode, by inverting its distribution function
/// (e.g. Law, Simulation Modeling and Analysis, 5th ed., section 8.3.15):
/// u < F(mode): low + sqrt(u (high - low)(mode - low)), else high - sqrt((1-u)(high - low)(high
/// - mode)), with u = uniform01(). Zero width (low == high) returns low without a division.
/// Needs low <= mode <= high (not checked here).
double triangular(std::mt19937_64& generator, double low, double mode, double high);

/// Standard normal by Marsaglia's polar method (Marsaglia & Bray 1964): u, v uniform on
/// (-1, 1), rejected unless 0 < s = u^2 + v^2 < 1; returns u sqrt(-2 ln(s) / s) (the second
/// variate, v sqrt(...), is discarded so each call is self-contained). Uses std::log and
/// std::sqrt only: sqrt is exact in IEEE 754 and log is faithfully rounded by the common
/// libraries, so results agree across platforms to the last bit or within an ulp.
double standard_normal(std::mt19937_64& generator);

/// One relative change drawn from `input` (see UncertainInput): the factor 1 + x applied to
/// the plan's value. Normal draws below -1 are rejected and drawn again (truncation: no
/// negative prices); zero width returns 1 + low (exactly 1, the plan's value, for 0..0) and sd 0
/// returns exactly 1, drawing nothing from the generator. Needs a valid input (check_input).
double factor(std::mt19937_64& generator, const UncertainInput& input);

/// The relative change of `input` at the standard normal value z (for correlated draws): the
/// quantile of its distribution at u = Phi(z) = erfc(-z / sqrt 2) / 2, i.e. uniform low + u
/// (high - low), triangular its inverse distribution function (as triangular()), normal sd x z
/// floored at -1 (a price never below zero; rejection would break the correlation). Returns
/// the factor 1 + x. Draws nothing.
double factor_at_normal(const UncertainInput& input, double z);

/// Throws EngineError naming `what` unless -1 <= low <= mode <= high, 0 <= sd <= 1, all
/// finite (the mode is checked for triangular only).
void check_input(const UncertainInput& input, const char* what);

/// The p-quantile (0 <= p <= 1) of sorted values by Hyndman & Fan (1996), "Sample quantiles
/// in statistical packages", definition 7 (Excel PERCENTILE.INC, R's and NumPy's default):
/// h = (n - 1) p, Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
/// Throws EngineError on an empty vector or p outside [0, 1].
double quantile_sorted(const std::vector<double>& sorted, double p);

/// quantile_sorted(sorted values, p) for p = 0.1, 0.5 and 0.9, from unsorted `values`, which it
/// reorders without sorting them all: std::nth_element places the order statistic x[floor h]
/// each quantile needs (the median's first, then P10's left of it and P90's right of it) and
/// x[floor h + 1] is the least value after it; so the figures equal those of the sorted
/// values exactly, in O(n) time on average instead of O(n log n). Throws EngineError on an
/// empty vector.
std::array<double, 3> p10_p50_p90(std::vector<double>& values);

/// The same over the n values at `values` (n > 0), for columns kept in one array. From
/// 32,768 values on, read once through a band around each quantile's rank, bounded by a
/// sorted sample of 4,096 of the values, and the two order statistics selected within the
/// band (the values are then left in their order); where a band misses them (a column of
/// many ties, a sample unlike the column), holds a NaN or a zero at them, or below 32,768
/// values, std::nth_element over the whole column as above (reordering it). Either way the
/// order statistics of the sorted values, so the same quantiles bit for bit. Throws
/// EngineError when n is 0.
std::array<double, 3> p10_p50_p90(double* values, std::size_t n);

}  // namespace gputco::risk
