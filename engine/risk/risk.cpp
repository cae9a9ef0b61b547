#include "engine/risk/risk.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "engine/base/error.hpp"
#include "engine/base/parallel.hpp"
#include "engine/money/money_totals.hpp"
#include "engine/money/month_factors.hpp"
#include "engine/plan/figure_check.hpp"

namespace gputco::risk {

double uniform01(std::mt19937_64& generator) {
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;  // 2^-53
  return static_cast<double>(generator() >> 11) * kTwoToMinus53;
}

namespace {

/// The triangular distribution's inverse at u in [0, 1] (width > 0).
double triangular_at(double u, double low, double mode, double high) {
  const double width = high - low;
  const double peak = (mode - low) / width;  // F(mode)
  if (u < peak) return low + std::sqrt(u * width * (mode - low));
  return high - std::sqrt((1.0 - u) * width * (high - mode));
}

}  // namespace

double triangular(std::mt19937_64& generator, double low, double mode, double high) {
  if (!(high - low > 0)) return low;
  return triangular_at(uniform01(generator), low, mode, high);
}

double standard_normal(std::mt19937_64& generator) {
  for (;;) {
    const double u = 2.0 * uniform01(generator) - 1.0;
    const double v = 2.0 * uniform01(generator) - 1.0;
    const double s = u * u + v * v;
    if (s > 0 && s < 1) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double factor(std::mt19937_64& generator, const UncertainInput& input) {
  switch (input.distribution) {
    case Distribution::uniform:
      if (!(input.high > input.low)) return 1.0 + input.low;
      return 1.0 + input.low + (input.high - input.low) * uniform01(generator);
    case Distribution::triangular:
      if (!(input.high > input.low)) return 1.0 + input.low;
      return 1.0 + triangular(generator, input.low, input.mode, input.high);
    case Distribution::normal: {
      if (!(input.sd > 0)) return 1.0;
      // Truncated below at a factor of zero by rejection; with sd <= 1 at least 84 % of the
      // draws are kept, so the loop ends quickly.
      for (;;) {
        const double x = input.sd * standard_normal(generator);
        if (x >= -1.0) return 1.0 + x;
      }
    }
  }
  return 1.0;
}

double factor_at_normal(const UncertainInput& input, double z) {
  const double u = 0.5 * std::erfc(-z / std::sqrt(2.0));  // Phi(z)
  switch (input.distribution) {
    case Distribution::uniform:
      return 1.0 + input.low + (input.high - input.low) * u;
    case Distribution::triangular:
      if (!(input.high > input.low)) return 1.0 + input.low;
      return 1.0 + triangular_at(u, input.low, input.mode, input.high);
    case Distribution::normal:
      return 1.0 + std::max(input.sd * z, -1.0);
  }
  return 1.0;
}

void check_input(const UncertainInput& input, const char* what) {
  const bool finite = std::isfinite(input.low) && std::isfinite(input.mode) &&
                      std::isfinite(input.high) && std::isfinite(input.sd);
  GPUTCO_REQUIRE(finite, "risk model " << what << ": the distribution's parameters must be finite");
  switch (input.distribution) {
    case Distribution::uniform:
      GPUTCO_REQUIRE(input.low >= -1 && input.low <= input.high,
                     "risk model " << what << ": uniform needs -1 <= low <= high, got low "
                                   << input.low << ", high " << input.high);
      break;
    case Distribution::triangular:
      GPUTCO_REQUIRE(input.low >= -1 && input.low <= input.mode && input.mode <= input.high,
                     "risk model " << what << ": triangular needs -1 <= low <= mode <= high, got "
                                   << input.low << ", " << input.mode << ", " << input.high);
      break;
    case Distribution::normal:
      GPUTCO_REQUIRE(input.sd >= 0 && input.sd <= 1,
                     "risk model " << what
                                   << ": normal needs 0 <= sd <= 1 (a relative change), got "
                                   << input.sd);
      break;
  }
}

double quantile_sorted(const std::vector<double>& sorted, double p) {
  GPUTCO_REQUIRE(!sorted.empty(), "a quantile needs at least one value");
  GPUTCO_REQUIRE(p >= 0 && p <= 1, "a quantile's probability must be in [0, 1], got " << p);
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double fraction = h - static_cast<double>(lo);
  return sorted[lo] + fraction * (sorted[lo + 1] - sorted[lo]);
}

std::array<double, 3> p10_p50_p90(std::vector<double>& values) {
  return p10_p50_p90(values.data(), values.size());
}

namespace {

constexpr std::array<double, 3> kQuantiles = {0.1, 0.5, 0.9};

/// p10_p50_p90 by std::nth_element over the whole column (reorders it).
std::array<double, 3> p10_p50_p90_by_selection(double* values, size_t n) {
  std::array<double, 3> out{};
  constexpr std::array<double, 3> kP = {0.1, 0.5, 0.9};
  double* const begin = values;
  double* const end = values + n;
  // The median first over the whole column, then P10 left of it and P90 right of it.
  const auto lo_of = [n](double p) {
    return static_cast<size_t>(std::floor(static_cast<double>(n - 1) * p));
  };
  const auto at = [begin](size_t i) { return begin + static_cast<std::ptrdiff_t>(i); };
  const size_t mid = lo_of(kP[1]);
  const size_t low = lo_of(kP[0]);
  const size_t high = lo_of(kP[2]);
  std::nth_element(begin, at(mid), end);
  if (low < mid) std::nth_element(begin, at(low), at(mid));
  if (high > mid) std::nth_element(at(mid + 1), at(high), end);
  for (size_t q = 0; q < kP.size(); ++q) {
    const double h = static_cast<double>(n - 1) * kP[q];
    const size_t lo = lo_of(kP[q]);
    if (lo + 1 >= n) {
      out[q] = values[n - 1];  // n = 1: the only value
      continue;
    }
    // x[lo + 1] of the sorted column: the least value after position lo (below the median's
    // position when lo is left of it, nth_element having put the larger ones after it).
    const double next = *std::min_element(at(lo + 1), lo < mid ? at(mid + 1) : end);
    const double fraction = h - static_cast<double>(lo);
    out[q] = values[lo] + fraction * (next - values[lo]);
  }
  return out;
}

/// floor((n - 1) p): the position of the order statistic quantile p starts from.
size_t lower_position(size_t n, double p) {
  return static_cast<size_t>(std::floor(static_cast<double>(n - 1) * p));
}

/// The columns from which p10_p50_p90 reads through bands: below, nth_element is as quick.
constexpr size_t kBandMinValues = size_t{1} << 15;

/// P10, P50 and P90 of n >= kBandMinValues values through one read of the column, which it
/// leaves as it is: 4,096 values spread evenly over it are sorted, and for each quantile the
/// sampled values 128 places either side of its rank bound a band [low, high] (about 6 % of
/// the values); the read counts the values below each band and copies those inside, and the
/// order statistics x[floor h] and x[floor h + 1] are selected in the band, at their rank
/// less the count below. The same values as the sorted column's, so the same quantiles, bit
/// for bit. nullopt (the caller selects over the whole column) where a band misses one of
/// its two ranks, or holds a NaN or a zero at them (of -0.0 and 0.0, the whole column's
/// selection decides which one it returns).
std::optional<std::array<double, 3>> p10_p50_p90_by_bands(const double* values, size_t n) {
  constexpr size_t kSamples = 4096;
  constexpr size_t kMargin = 128;
  std::vector<double> sample(kSamples);
  for (size_t i = 0; i < kSamples; ++i) sample[i] = values[i * (n / kSamples)];
  for (const double v : sample) {
    if (std::isnan(v)) return std::nullopt;
  }
  std::sort(sample.begin(), sample.end());
  std::array<double, 3> low{}, high{};
  std::array<size_t, 3> below{};
  std::array<size_t, 3> inside{};
  // Each band's room: twice its expected share, with no branch on the value in the read
  // below (each value is written past the band's end and kept by counting it or not).
  const size_t room = n / 8 + 1;
  // Not value-initialised: only the values counted in are read.
  const std::unique_ptr<double[]> bands(new double[3 * room]);
  for (size_t q = 0; q < kQuantiles.size(); ++q) {
    const auto centre = static_cast<size_t>(kQuantiles[q] * (kSamples - 1));
    low[q] = centre >= kMargin ? sample[centre - kMargin] : -HUGE_VAL;
    high[q] = centre + kMargin < kSamples ? sample[centre + kMargin] : HUGE_VAL;
  }
  const std::array<double*, 3> out_at = {bands.get(), bands.get() + room, bands.get() + 2 * room};
  bool nan = false;
  for (size_t i = 0; i < n; ++i) {
    const double v = values[i];
    nan |= std::isnan(v);
    for (size_t q = 0; q < kQuantiles.size(); ++q) {
      below[q] += v < low[q] ? 1 : 0;
      out_at[q][inside[q]] = v;
      inside[q] += (v >= low[q]) & (v <= high[q]) ? 1 : 0;
    }
    if (inside[0] >= room || inside[1] >= room || inside[2] >= room) return std::nullopt;
  }
  if (nan) return std::nullopt;
  std::array<double, 3> out{};
  for (size_t q = 0; q < kQuantiles.size(); ++q) {
    const size_t lo = lower_position(n, kQuantiles[q]);
    double* const b = out_at[q];
    double* const b_end = b + inside[q];
    if (lo < below[q] || lo + 1 >= below[q] + inside[q]) return std::nullopt;
    const auto j = static_cast<std::ptrdiff_t>(lo - below[q]);
    std::nth_element(b, b + j, b_end);
    const double x = b[j];
    const double next = *std::min_element(b + j + 1, b_end);
    if (x == 0 || next == 0) return std::nullopt;
    const double fraction = static_cast<double>(n - 1) * kQuantiles[q] - static_cast<double>(lo);
    out[q] = x + fraction * (next - x);
  }
  return out;
}

}  // namespace

std::array<double, 3> p10_p50_p90(double* values, size_t n) {
  GPUTCO_REQUIRE(n > 0, "a quantile needs at least one value");
  if (n >= kBandMinValues) {
    if (const auto by_bands = p10_p50_p90_by_bands(values, n)) return *by_bands;
  }
  return p10_p50_p90_by_selection(values, n);
}

}  // namespace gputco::risk

namespace gputco {

namespace {

/// The plan's value of every sampled input of one option, kept to rebuild each draw from.
struct BaseValues {
  double price_per_gpu = 0;
  double host_cost = 0;
  double residual_fraction = 0;
  double maintenance_per_year = 0;
  double annual_failure_rate = 0;
  double rate_per_gpu_hour = 0;
  double price_per_month = 0;
  double setup_fee = 0;
  double overflow_rate_per_hour = 0;
  std::optional<double> tariff_per_kwh;
  double input_price_per_million = 0;
  double output_price_per_million = 0;
};

/// No FX draw applies: the amount is in the plan currency.
constexpr size_t kPlanCurrency = static_cast<size_t>(-1);

/// Where each converted amount of one option finds its exchange-rate factor: an index into
/// the draw's FX factors (RiskModel::fx's order), kPlanCurrency when not converted or not varied.
struct FxSlots {
  size_t price_per_gpu = kPlanCurrency;
  size_t rate_per_gpu_hour = kPlanCurrency;
  size_t price_per_month = kPlanCurrency;
  size_t setup_fee = kPlanCurrency;
  size_t overflow_rate_per_hour = kPlanCurrency;
  size_t input_price_per_million = kPlanCurrency;
  size_t output_price_per_million = kPlanCurrency;
  size_t host_cost = kPlanCurrency;
};

/// The options a Monte Carlo draws (the plan's feasible ones, prepared), with what each draw
/// rebuilds them from.
struct DrawnOptions {
  std::vector<OptionInputs> options;  ///< prepared, the plan's feasible options in order
  std::vector<BaseValues> base;
  std::vector<FxSlots> slots;
  /// The drawn options (options' order) that may be recommended: the lowest NPV of cost among
  /// them is the draw's recommendation (make_plan's rule; ties keep file order).
  std::vector<size_t> candidates;
  size_t owned = 0, rented = 0;  ///< the pair's indices into options
};

/// The plan's feasible options of `prepared` with their base values and FX slots (`slot_of`:
/// a currency code's slot).
template <typename SlotOf>
DrawnOptions drawn_options(const PlanInputs& prepared, const Plan& plan,
                           const std::optional<Comparison>& pair, const SlotOf& slot_of) {
  DrawnOptions d;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (!plan.options[i].feasible) continue;
    if (is_candidate(plan.options[i])) d.candidates.push_back(d.options.size());
    const auto& o = prepared.options[i];
    if (pair && i == pair->owned) d.owned = d.options.size();
    if (pair && i == pair->rented) d.rented = d.options.size();
    d.options.push_back(o);
    // The overflow rate is the overflow rental's rate x count / goodput: it moves with the
    // rate of the currency that rental's rate was converted from.
    std::string overflow_currency;
    for (const auto& other : prepared.options) {
      if (!o.overflow_option_id.empty() && other.id == o.overflow_option_id) {
        overflow_currency = other.converted_from.rate_per_gpu_hour;
      }
    }
    const ConvertedFrom& c = o.converted_from;
    d.slots.push_back({slot_of(c.price_per_gpu), slot_of(c.rate_per_gpu_hour),
                       slot_of(c.price_per_month), slot_of(c.setup_fee), slot_of(overflow_currency),
                       slot_of(c.input_price_per_million), slot_of(c.output_price_per_million),
                       slot_of(c.host_cost)});
    d.base.push_back({o.price_per_gpu, o.host_cost, o.residual_fraction, o.maintenance_per_year,
                      o.annual_failure_rate, o.rate_per_gpu_hour, o.price_per_month, o.setup_fee,
                      o.overflow_rate_per_hour, o.tariff_per_kwh, o.input_price_per_million,
                      o.output_price_per_million});
  }
  return d;
}

/// One draw's factors of the inputs every option shares.
struct DrawnFactors {
  double price = 0, rental = 0, resale = 0, tariff = 0, hours = 0, maintenance = 0, failures = 0,
         demand = 0, growth_change = 0;
};

/// Draws one set of shared factors from `generator` in the fixed order of every seed's
/// sequence; the exchange rates after them into `fx`.
DrawnFactors draw_factors(std::mt19937_64& generator, const RiskModel& model,
                          const std::vector<const UncertainInput*>& fx_inputs,
                          std::vector<double>& fx) {
  DrawnFactors d;
  // Correlated prices draw their two normals first, in the purchase price's place.
  const double rho = model.purchase_rental_correlation;
  if (rho != 0) {
    const double z1 = risk::standard_normal(generator);
    const double z2 = risk::standard_normal(generator);
    d.price = risk::factor_at_normal(model.purchase_price, z1);
    d.rental = risk::factor_at_normal(model.rental_rate, rho * z1 + std::sqrt(1 - rho * rho) * z2);
  } else {
    d.price = risk::factor(generator, model.purchase_price);
  }
  d.resale = risk::factor(generator, model.resale);
  d.tariff = risk::factor(generator, model.tariff);
  d.hours = risk::factor(generator, model.hours_per_day);
  if (rho == 0) d.rental = risk::factor(generator, model.rental_rate);
  d.maintenance = risk::factor(generator, model.maintenance);
  d.failures = risk::factor(generator, model.failure_rate);
  d.demand = risk::factor(generator, model.demand);
  d.growth_change = risk::factor(generator, model.growth) - 1.0;
  // The exchange rates last, so that a plan without [risk] fx keeps every seed's numbers.
  for (size_t c = 0; c < fx_inputs.size(); ++c) fx[c] = risk::factor(generator, *fx_inputs[c]);
  return d;
}

/// The draw's workload: `base` at the drawn hours, demand and growth (only those fields
/// written). A day has 24 hours: a draw above them moves the demand, not the hours (issue #43:
/// a 24x7 plan capped every upward draw, so the draws lowered the demand on average). The
/// plan's own workload at its own hours (a draw at the plan's values reproduces make_plan's
/// figures exactly), else at_hours_per_day's.
void draw_workload(const WorkloadInputs& base, const DrawnFactors& d, double most_growth,
                   WorkloadInputs& workload) {
  const double drawn_hours = base.hours_per_day * d.hours;
  const double hours_per_day = std::min(drawn_hours, kHoursPerFullDay);
  const double demand_at_cap = drawn_hours > kHoursPerFullDay ? drawn_hours / hours_per_day : 1.0;
  set_hours_per_day(base, hours_per_day, workload);
  if (const double moved = d.demand * demand_at_cap; moved != 1.0) {
    if (workload.tokens_per_day) *workload.tokens_per_day *= moved;
    if (workload.requests_per_day) *workload.requests_per_day *= moved;
  }
  // The scenario's own range for growth_per_month, within its cap.
  workload.growth_per_month =
      d.growth_change != 0 ? std::clamp(base.growth_per_month + d.growth_change, -0.99, most_growth)
                           : base.growth_per_month;
}

/// Option `o` at the draw's prices, from its base values `b` and FX factors (`fx_at`: a
/// slot's factor).
template <typename FxAt>
void draw_option(const BaseValues& b, const FxSlots& f, const DrawnFactors& d, const FxAt& fx_at,
                 OptionInputs& o) {
  o.price_per_gpu = b.price_per_gpu * d.price * fx_at(f.price_per_gpu);
  o.host_cost = b.host_cost * d.price * fx_at(f.host_cost);
  o.residual_fraction = std::min(b.residual_fraction * d.resale, 1.0);
  o.maintenance_per_year = b.maintenance_per_year * d.maintenance;
  o.annual_failure_rate = std::min(b.annual_failure_rate * d.failures, 1.0);
  o.rate_per_gpu_hour = b.rate_per_gpu_hour * d.rental * fx_at(f.rate_per_gpu_hour);
  o.price_per_month = b.price_per_month * d.rental * fx_at(f.price_per_month);
  o.setup_fee = b.setup_fee * fx_at(f.setup_fee);
  // prepare_plan_inputs derives it as the rental's rate x count / goodput: linear in the rate,
  // so it moves with the same draw.
  o.overflow_rate_per_hour = b.overflow_rate_per_hour * d.rental * fx_at(f.overflow_rate_per_hour);
  o.input_price_per_million =
      b.input_price_per_million * d.rental * fx_at(f.input_price_per_million);
  o.output_price_per_million =
      b.output_price_per_million * d.rental * fx_at(f.output_price_per_million);
  if (b.tariff_per_kwh) o.tariff_per_kwh = *b.tariff_per_kwh * d.tariff;
}

/// The Monte Carlo's result from its percentiles (`spreads`: one per drawn option, then the NPV
/// difference with a pair) and its counts per block of draws won by owning and lowest per
/// option.
RiskResult tally(const Plan& plan, const std::optional<Comparison>& pair,
                 const std::vector<OptionInputs>& drawn,
                 const std::vector<std::array<double, 3>>& spreads,
                 const std::vector<size_t>& block_buy_wins, const std::vector<size_t>& block_lowest,
                 int draws) {
  RiskResult result;
  result.draws = draws;
  result.compared = pair.has_value();
  const auto n = static_cast<double>(draws);
  const size_t n_options = drawn.size();
  if (pair) {
    const size_t buy_wins =
        std::accumulate(block_buy_wins.begin(), block_buy_wins.end(), size_t{0});
    result.probability_buy_beats_rent = static_cast<double>(buy_wins) / n;
    result.owned_option_id = plan.options[pair->owned].id;
    result.rented_option_id = plan.options[pair->rented].id;
    result.p10_difference = spreads[n_options][0];
    result.p50_difference = spreads[n_options][1];
    result.p90_difference = spreads[n_options][2];
  }
  const size_t blocks = n_options > 0 ? block_lowest.size() / n_options : 0;
  for (size_t k = 0; k < n_options; ++k) {
    const auto& p = spreads[k];
    size_t lowest = 0;
    for (size_t b = 0; b < blocks; ++b) lowest += block_lowest[b * n_options + k];
    result.options.push_back({drawn[k].id, p[0], p[1], p[2], static_cast<double>(lowest) / n});
  }
  return result;
}

/// Throws EngineError unless the Monte Carlo's arguments are in their domain.
void check_monte_carlo(const PlanInputs& inputs, const Plan& plan,
                       const std::optional<Comparison>& pair, int draws, const RiskModel& model,
                       int threads) {
  GPUTCO_REQUIRE(draws >= 1 && draws <= kMaxRiskDraws,
                 "Monte Carlo draws must be between 1 and " << kMaxRiskDraws << ", got " << draws);
  GPUTCO_REQUIRE(static_cast<long long>(draws) * static_cast<long long>(inputs.options.size()) <=
                     kMaxRiskOptionDraws,
                 "Monte Carlo: " << draws << " draws x " << inputs.options.size()
                                 << " options is above the limit of " << kMaxRiskOptionDraws
                                 << " option cash flows; lower --draws");
  GPUTCO_REQUIRE(
      inputs.options.size() == plan.options.size() &&
          (!pair || (pair->owned < plan.options.size() && pair->rented < plan.options.size())),
      "Monte Carlo: the plan does not match its inputs");
  GPUTCO_REQUIRE(threads >= 1, "Monte Carlo threads must be at least 1, got " << threads);
  risk::check_input(model.purchase_price, "purchase price");
  risk::check_input(model.resale, "resale");
  risk::check_input(model.tariff, "tariff");
  risk::check_input(model.hours_per_day, "hours per day");
  risk::check_input(model.rental_rate, "rental rate");
  risk::check_input(model.maintenance, "maintenance");
  risk::check_input(model.failure_rate, "failure rate");
  risk::check_input(model.demand, "demand");
  risk::check_input(model.growth, "growth");
  const double rho = model.purchase_rental_correlation;
  GPUTCO_REQUIRE(std::isfinite(rho) && rho >= -1 && rho <= 1,
                 "risk model: the purchase-rental correlation must be in [-1, 1], got " << rho);
  GPUTCO_REQUIRE(
      !pair || (plan.options[pair->owned].feasible && plan.options[pair->rented].feasible),
      "Monte Carlo: the compared options must hold the model");
}

/// `count` doubles, not initialised, for the Monte Carlo's figures, which the threads fill.
/// Where the buffer spans 2 MiB or more on Linux, it is mapped on its own and offered to
/// transparent huge pages (madvise(MADV_HUGEPAGE); the kernel may decline, then it is
/// ordinary pages): first touching 56 MB then takes some 30 page faults instead of 14,000,
/// each a costly trip into the kernel (8 % of a Monte Carlo's time). Else new[].
class FigureBuffer {
 public:
  explicit FigureBuffer(size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr size_t kHugePage = size_t{2} << 20;
    const size_t wanted = count * sizeof(double);
    if (wanted >= kHugePage) {
      // One huge page more than needed, to start at a huge page's boundary.
      const size_t length = wanted + kHugePage;
      void* mapped =
          mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mapped != MAP_FAILED) {
        mapped_ = mapped;
        mapped_length_ = length;
        const auto address = reinterpret_cast<std::uintptr_t>(mapped);
        const std::uintptr_t aligned = (address + kHugePage - 1) & ~(kHugePage - 1);
        // A refusal (no THP in this kernel) only leaves ordinary pages.
        (void)madvise(reinterpret_cast<void*>(aligned), length - (aligned - address),
                      MADV_HUGEPAGE);
        data_ = reinterpret_cast<double*>(aligned);
        return;
      }
    }
#endif
    heap_.reset(new double[count]);
    data_ = heap_.get();
  }
  FigureBuffer(const FigureBuffer&) = delete;
  FigureBuffer& operator=(const FigureBuffer&) = delete;
  ~FigureBuffer() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (mapped_ != nullptr) munmap(mapped_, mapped_length_);
#endif
  }
  double* data() const {
    return data_;
  }

 private:
  double* data_ = nullptr;
  std::unique_ptr<double[]> heap_;
  void* mapped_ = nullptr;
  size_t mapped_length_ = 0;
};

/// The exchange rates a risk model draws, in code order; an amount converted from a currency
/// finds its factor by slot.
struct FxRanges {
  std::vector<const UncertainInput*> inputs;
  std::vector<std::string> codes;
  /// The slot of `code`'s rate; kPlanCurrency for an amount not converted or a rate not drawn.
  size_t slot_of(const std::string& code) const {
    if (code.empty()) return kPlanCurrency;
    const auto at = std::find(codes.begin(), codes.end(), code);
    return at == codes.end() ? kPlanCurrency : static_cast<size_t>(at - codes.begin());
  }
};

/// The model's exchange rates; throws EngineError on a range out of its domain.
FxRanges fx_ranges(const RiskModel& model) {
  FxRanges fx;
  for (const auto& [code, range] : model.fx) {
    risk::check_input(range, ("exchange rate " + code).c_str());
    fx.codes.push_back(code);
    fx.inputs.push_back(&range);
  }
  return fx;
}

/// What one thread changes from draw to draw.
struct ThreadState {
  std::vector<OptionInputs> work;
  WorkloadInputs workload;
  SiteInputs site;
  MonthFactors factors;
  std::vector<MoneyScratch> flows;  // per option
  std::vector<MoneyTotals> sums;    // per option, this draw's
  std::vector<double> npv;
  std::vector<double> fx;  // this draw's factor per exchange rate (FxRanges' order)
};

/// `n_threads` states, each at the prepared inputs' values (`feasible`: the options drawn;
/// `n_fx`: the exchange rates drawn), sized so that a draw allocates nothing.
std::vector<ThreadState> thread_states(int n_threads, const std::vector<OptionInputs>& feasible,
                                       const PlanInputs& prepared,
                                       const MonthFactors& finance_factors, size_t n_fx) {
  std::vector<ThreadState> states(static_cast<size_t>(n_threads));
  for (auto& st : states) {
    st.work = feasible;
    st.workload = prepared.workload;
    st.site = prepared.site;
    st.factors = finance_factors;
    set_workload_factors(prepared.workload, prepared.finance, st.factors);
    st.flows.resize(feasible.size());
    st.sums.resize(feasible.size());
    st.npv.resize(feasible.size());
    st.fx.resize(n_fx);
  }
  return states;
}

/// What every draw reads and none changes.
struct DrawContext {
  const RiskModel& model;
  const std::vector<const UncertainInput*>& fx_inputs;
  const WorkloadInputs& base_workload;
  const FinanceInputs& finance;
  double most_growth;                   ///< cap of a drawn growth_per_month
  double site_tariff_per_kwh;           ///< the prepared site's, before the draw
  size_t site_tariff_slot;              ///< its exchange rate's slot
  const std::vector<BaseValues>& base;  ///< per drawn option
  const std::vector<FxSlots>& slots;    ///< per drawn option
};

/// One draw into `st`: the factors (a fixed order of draws from `generator`: the same seed gives
/// the same sequence), the workload, site and options at them, and each option's total and NPV
/// (st.sums, st.npv), summed in make_plan's order (engine/money/money_totals.hpp): a draw at the
/// plan's values reproduces its figures.
void draw_once(const DrawContext& c, std::mt19937_64& generator, ThreadState& st) {
  const auto fx_at = [&st](size_t slot) { return slot == kPlanCurrency ? 1.0 : st.fx[slot]; };
  const DrawnFactors f = draw_factors(generator, c.model, c.fx_inputs, st.fx);
  draw_workload(c.base_workload, f, c.most_growth, st.workload);
  set_workload_factors(st.workload, c.finance, st.factors);
  st.site.tariff_per_kwh = c.site_tariff_per_kwh * f.tariff * fx_at(c.site_tariff_slot);
  const size_t n_options = st.work.size();
  for (size_t k = 0; k < n_options; ++k) {
    draw_option(c.base[k], c.slots[k], f, fx_at, st.work[k]);
    money_month_totals(st.work[k], st.workload, st.site, c.finance, st.factors, st.flows[k]);
  }
  // The options' sums advance together.
  sum_money_totals(st.flows.data(), n_options, st.factors.discount_factor, st.sums.data());
  for (size_t k = 0; k < n_options; ++k) st.npv[k] = st.sums[k].npv;
}

/// The first of `candidates` (option indices, not empty) with the lowest `npv`.
size_t lowest_npv(const std::vector<size_t>& candidates, const std::vector<double>& npv) {
  size_t lowest = candidates.front();
  for (const size_t k : candidates) {
    if (npv[k] < npv[lowest]) lowest = k;
  }
  return lowest;
}

/// SplitMix64's output for state x (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Vigna's reference splitmix64.c): the k-th output
/// of a SplitMix64 generator seeded with s is mix(s + k x 0x9E3779B97F4A7C15), k = 1, 2, ...
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t risk_block_seed(std::uint64_t seed, std::uint64_t block) {
  // Unsigned arithmetic wraps (mod 2^64) by definition: no overflow.
  return splitmix64(seed + block * 0x9E3779B97F4A7C15ull);
}

RiskResult monte_carlo(const PlanInputs& inputs, const Plan& plan,
                       const std::optional<Comparison>& pair, int draws, std::uint64_t seed,
                       const RiskModel& model, const RiskProgress& progress, int threads) {
  check_monte_carlo(inputs, plan, pair, draws, model, threads);
  const FxRanges fx = fx_ranges(model);
  const auto slot_of = [&fx](const std::string& code) { return fx.slot_of(code); };

  // Fit, speed and capacity do not depend on prices: prepared once, as make_plan does; only
  // the feasible options' cash flows are redone per draw.
  PlanInputs prepared_inputs = inputs;
  prepare_plan_inputs(prepared_inputs);
  const DrawnOptions drawn = drawn_options(prepared_inputs, plan, pair, slot_of);
  const std::vector<OptionInputs>& feasible = drawn.options;
  const std::vector<size_t>& candidates = drawn.candidates;
  const size_t owned = drawn.owned, rented = drawn.rented;
  const FinanceInputs& finance = prepared_inputs.finance;
  const size_t n_options = feasible.size();

  // Every buffer is sized before the draws; a draw writes into them and allocates nothing.
  // Only what the result needs is kept per draw: each option's total and, with a pair, the
  // NPV difference.
  // The figures are one array of columns of n draws: each option's total, then, with a pair,
  // the NPV differences. Not value-initialised: every draw writes its own entries, so each page
  // is first touched (and zeroed by the kernel) by the thread that fills it, not copied over.
  const auto n = static_cast<size_t>(draws);
  const size_t columns = n_options + (pair ? 1 : 0);
  const FigureBuffer figures(columns * n);
  const auto column = [&figures, n](size_t c) { return figures.data() + c * n; };
  double* const differences = column(n_options);
  const size_t blocks = (n + kRiskBlockDraws - 1) / kRiskBlockDraws;
  std::vector<size_t> block_buy_wins(blocks, 0);
  // Per block, the draws in which each option had the lowest NPV of the candidates.
  std::vector<size_t> block_lowest(blocks * n_options, 0);

  // A drawn growth_per_month's cap: the demand at most a million times month 1's over the
  // horizon (and at most +100 % a month).
  const double most_growth = std::min(1.0, std::pow(1e6, 1.0 / finance.horizon_months) - 1.0);
  // The finance's month factors (discounting, trends) are the same in every draw.
  MonthFactors finance_factors;
  set_finance_factors(prepared_inputs.site, finance, finance_factors);
  const DrawContext context{model,
                            fx.inputs,
                            prepared_inputs.workload,
                            finance,
                            most_growth,
                            prepared_inputs.site.tariff_per_kwh,
                            slot_of(prepared_inputs.site.tariff_converted_from),
                            drawn.base,
                            drawn.slots};

  const int n_threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), blocks));
  std::vector<ThreadState> states =
      thread_states(n_threads, feasible, prepared_inputs, finance_factors, fx.inputs.size());
  std::atomic<size_t> draws_done{0};
  size_t progress_reported = 0;

  const auto run_block = [&](size_t block, int thread) {
    ThreadState& st = states[static_cast<size_t>(thread)];
    // Each block has its own generator, seeded from the seed and the block's index alone: the
    // draws are the same whichever thread runs the block.
    std::mt19937_64 generator(risk_block_seed(seed, block));
    const size_t first = block * kRiskBlockDraws;
    const size_t end = std::min(n, first + kRiskBlockDraws);
    size_t buy_wins = 0;
    for (size_t d = first; d < end; ++d) {
      draw_once(context, generator, st);
      for (size_t k = 0; k < n_options; ++k) column(k)[d] = st.sums[k].total;
      if (pair) {
        differences[d] = st.npv[owned] - st.npv[rented];
        if (st.npv[owned] < st.npv[rented]) ++buy_wins;
      }
      if (!candidates.empty()) ++block_lowest[block * n_options + lowest_npv(candidates, st.npv)];
    }
    block_buy_wins[block] = buy_wins;
    const size_t done = draws_done.fetch_add(end - first) + (end - first);
    // The calling thread (0) reports, every kProgressEvery draws done by all threads.
    constexpr size_t kProgressEvery = 4096;
    if (thread == 0 && progress && done < n && done / kProgressEvery > progress_reported) {
      progress_reported = done / kProgressEvery;
      progress(static_cast<int>(progress_reported * kProgressEvery), draws);
    }
  };
  parallel_for(blocks, n_threads, run_block);
  if (progress) progress(draws, draws);

  // The columns' percentiles are independent: one column per index, over the same threads;
  // the NPV differences are the last column, with a pair only.
  std::vector<std::array<double, 3>> spreads(columns);
  parallel_for(columns, n_threads,
               [&](size_t c, int) { spreads[c] = risk::p10_p50_p90(column(c), n); });
  RiskResult result = tally(plan, pair, feasible, spreads, block_buy_wins, block_lowest, draws);
  result.seed = seed;
  check_finite_figures(result);
  return result;
}

}  // namespace gputco
