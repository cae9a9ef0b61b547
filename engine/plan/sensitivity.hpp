// Sensitivity and risk: what the buy-versus-rent answer depends on, and how sure it is.
// (Contract shared by the engine, the CLI and the reports; implemented in sensitivity.cpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan/plan.hpp"

namespace gputco {

/// One bar of the tornado: an uncertain input moved down and up by the swing, and what
/// happens to the buy-versus-rent difference (NPV of the owned option minus NPV of the
/// rental baseline; negative = buying is cheaper), plan currency.
struct TornadoBar {
  std::string input;           ///< "purchase price", "resale", "tariff", "hours per day", ...
  std::string key;             ///< the scenario key moved, e.g. "price_per_gpu"
  double low_value = 0;        ///< the input at -swing
  double high_value = 0;       ///< the input at +swing
  double difference_low = 0;   ///< buy - rent NPV difference with the input at low_value
  double difference_high = 0;  ///< ... at high_value
};

/// Distribution of an uncertain input for the Monte Carlo.
enum class Distribution { uniform, triangular, normal };

/// The seeded Monte Carlo's result (same seed and draws give the same numbers).
struct RiskResult {
  int draws = 0;
  std::uint64_t seed = 0;
  /// false: the plan has no owned option and rental to compare (comparison() found no pair):
  /// only the options' percentiles are results; the probability, the pair and the differences
  /// are 0 / empty and reports leave them out.
  bool compared = true;
  double probability_buy_beats_rent = 0;  ///< share of draws where owned NPV < rental NPV
  std::string owned_option_id;            ///< the owned option compared (see comparison())
  std::string rented_option_id;           ///< the rental it is compared with
  /// P10/P50/P90 of the buy-minus-rent NPV difference (negative = buying is cheaper).
  double p10_difference = 0;
  double p50_difference = 0;
  double p90_difference = 0;
  struct OptionPercentiles {
    std::string id;
    double p10_total_cost = 0;
    double p50_total_cost = 0;
    double p90_total_cost = 0;
    /// Share of the draws (0..1) in which this option's NPV of cost is the lowest of the
    /// plan's candidates (is_candidate: it holds the model and no constraint excludes it;
    /// ties to the first in file order), the plan's recommendation rule applied to each draw.
    /// 0 for an option a constraint excludes; the candidates' shares add up to 1.
    double probability_lowest_npv = 0;
  };
  std::vector<OptionPercentiles> options;
};

/// Total cost of every option at one utilization (hours of use per day): the data behind
/// the crossover chart.
struct SweepPoint {
  double hours_per_day = 0;
  std::vector<double> total_cost;  ///< one per option, in Plan::options order
};

/// The uncertainty of one input for the Monte Carlo, as a relative change of the plan's own
/// value: a draw x gives the value base x (1 + x). Defaults: no uncertainty.
/// - uniform: x uniform on [low, high];
/// - triangular: x triangular on [low, high] with its peak at mode;
/// - normal: x normal with mean 0 and standard deviation sd, truncated below at -1 by
///   rejection (a price, tariff or rate is never negative).
/// Values beyond an upper physical bound (24 h/day, a resale of 100 % of capex) are clamped to
/// it. Checked by monte_carlo(): -1 <= low <= mode <= high, 0 <= sd <= 1, all finite.
struct UncertainInput {
  Distribution distribution = Distribution::uniform;
  double low = 0;   ///< uniform, triangular: the lowest relative change (-0.15 = -15 %)
  double mode = 0;  ///< triangular: the most likely relative change
  double high = 0;  ///< uniform, triangular: the highest relative change
  double sd = 0;    ///< normal: standard deviation of the relative change
};

/// Whether draws of `input` move anything: false for a fixed input (uniform 0 .. 0, the
/// default of demand and growth), a triangular 0 / 0 / 0 or a normal with sd 0. Throws nothing.
inline bool varies(const UncertainInput& input) {
  return input.low != 0 || input.mode != 0 || input.high != 0 || input.sd != 0;
}

/// The uncertain inputs of the Monte Carlo and their distributions. One draw of each input is
/// shared by every option that has it (the purchase-price draw moves every owned option's
/// price per GPU and host cost alike, the rental-rate draw every rental's hourly rate and
/// monthly price): options are compared under the same market. The defaults are our
/// judgement of how far 2026 buyer's-guide figures move within a quote's life, not a
/// published statistic; the scenario's figure is always the centre (mode or mean), and every
/// default range is symmetric about it, so no default leans towards owning or renting. A
/// scenario's `[risk]` section replaces any of them (scenarios/risk_keys.hpp).
struct RiskModel {
  /// price_per_gpu and host_cost of owned options: street prices move +-15 %.
  UncertainInput purchase_price{Distribution::triangular, -0.15, 0, 0.15, 0};
  /// residual_fraction: the used market at the horizon is the least known figure.
  UncertainInput resale{Distribution::uniform, -0.5, 0, 0.5, 0};
  /// tariff_per_kwh, the site's and any option's own: sd 10 %.
  UncertainInput tariff{Distribution::normal, 0, 0, 0, 0.10};
  /// workload hours_per_day (shared by every option; tokens_per_day moves with it, as in
  /// at_hours_per_day: the load per hour of use stays): +-25 %. A draw above 24 h/day is 24
  /// h/day with the demand moved by the whole factor (issue #43): tokens_per_day x the drawn
  /// factor either way, so the draws keep the demand's mean on a 24x7 plan too.
  UncertainInput hours_per_day{Distribution::uniform, -0.25, 0, 0.25, 0};
  /// rate_per_gpu_hour and price_per_month of rentals, the overflow rate owned options
  /// pay for the peaks, and api options' prices per million tokens (the market price of
  /// hosted compute): +-20 %, symmetric. (Until issue #16 the default was -30 % / +10 %,
  /// which leaned towards renting: a range a user believes goes in [risk] rental_rate.)
  UncertainInput rental_rate{Distribution::triangular, -0.20, 0, 0.20, 0};
  /// maintenance_per_year of owned options (repairs): +-50 %.
  UncertainInput maintenance{Distribution::uniform, -0.5, 0, 0.5, 0};
  /// annual_failure_rate of owned options (used cards above all): +-50 %.
  UncertainInput failure_rate{Distribution::uniform, -0.5, 0, 0.5, 0};
  /// tokens_per_day and requests_per_day (the demand, at the same hours of use): not varied
  /// by default (0 .. 0: the demand the scenario states); no effect without a stated demand.
  UncertainInput demand{Distribution::uniform, 0, 0, 0, 0};
  /// growth_per_month: an ABSOLUTE change added to it (0.01 = one point more a month), not a
  /// relative one; the sum is kept above -0.99. Not varied by default.
  UncertainInput growth{Distribution::uniform, 0, 0, 0, 0};
  /// Correlation of the purchase-price and rental-rate draws, -1..1 (both follow the market
  /// for the same hardware): 0 (default) draws them apart. Otherwise a Gaussian copula: two
  /// standard normals z1, z2, the rental's z = rho z1 + sqrt(1 - rho^2) z2, each turned into
  /// its distribution by factor_at_normal (Nelsen, An Introduction to Copulas, 2nd ed., 2006,
  /// section 2.3 and example 2.2 for the normal copula; the rank correlation is close to rho).
  double purchase_rental_correlation = 0;
  /// Exchange rates, by ISO 4217 code of the currency converted from: a relative change of
  /// the rate (plan currency per unit of CODE) that multiplies exactly the amounts the resolver
  /// converted from CODE (OptionInputs::converted_from, SiteInputs::tariff_converted_from; an
  /// owned option's overflow rate when its overflow rental's rate was converted), on top of
  /// the other draws. Drawn after every other input, in code order (std::map), one draw per
  /// currency shared by every option; a currency not listed is not varied. Zero width draws
  /// nothing, so a `fixed` rate leaves every seed's numbers as they were.
  std::map<std::string, UncertainInput> fx;
};

/// Seed of the Monte Carlo when none is given (plan, risk without --seed).
inline constexpr std::uint64_t kDefaultRiskSeed = 20260101;

/// Options of analyse(): the tornado's swing, the utilization sweep's grid and the Monte Carlo.
struct SensitivityOptions {
  double swing_fraction = 0.2;          ///< tornado: every input moved by -+20 % (0 < swing <= 1)
  double sweep_from_hours_per_day = 0;  ///< first sweep point, h/day
  double sweep_to_hours_per_day = 24;   ///< last sweep point (included when on the grid)
  double sweep_step_hours_per_day = 1;  ///< > 0
  int draws = 10000;                    ///< Monte Carlo draws; 0 = no Monte Carlo
  std::uint64_t seed = kDefaultRiskSeed;
  int threads = 1;  ///< Monte Carlo threads (>= 1; the result is the same)
  RiskModel risk_model;
};

/// Everything the Sensitivity and Crossover sheets show.
struct Sensitivity {
  std::string owned_option_id;      ///< the owned option the tornado compares (the best owned)
  std::string rented_option_id;     ///< the rental baseline it is compared with
  double swing_fraction = 0.2;      ///< each input moved by +-20 %
  double base_difference = 0;       ///< buy - rent NPV difference at the base inputs
  std::vector<TornadoBar> tornado;  ///< sorted by width, widest first
  std::optional<RiskResult> risk;
  /// The distributions the Monte Carlo drew from (SensitivityOptions::risk_model), for the
  /// Sensitivity sheet's list of what was varied.
  RiskModel risk_model;
  std::vector<SweepPoint> utilization_sweep;  ///< 0..24 h/day
  /// Why the tornado and the Monte Carlo are missing ("" when they are present): the plan has
  /// no feasible owned option, or no feasible rental to compare it with.
  std::string note;
};

/// The owned option and the rental the tornado and Monte Carlo compare, as indices into
/// Plan::options (and PlanInputs::options, same order).
struct Comparison {
  size_t owned = 0;   ///< the feasible buy option with the lowest NPV
  size_t rented = 0;  ///< Plan::baseline_option_id, else the feasible rental with the lowest NPV
};

/// The pair analyse() compares: the feasible buy option with the lowest NPV (ties: file
/// order) and the rental baseline, Plan::baseline_option_id, else (no feasible hourly
/// rental) the feasible rent_hourly or rent_monthly option with the lowest NPV, else (no
/// rental at all) the feasible api option with the lowest NPV.
/// nullopt when the plan has no feasible owned option or no feasible rental.
std::optional<Comparison> comparison(const PlanInputs& inputs, const Plan& plan);

/// The buy-minus-rent NPV difference (plan currency; negative = buying is cheaper) with every
/// input at the plan's value, and the tornado: each uncertain input multiplied by
/// (1 - swing) and (1 + swing) in turn, everything else at its value, difference recomputed
/// through option_cash_flow (so it is the plan's model, never a second one; derived inputs
/// are prepared again after each move, as prepare_plan_inputs asks).
/// Bars, in this order before sorting by width (|difference_high - difference_low|, widest
/// first; equal widths keep this order): purchase price per GPU, host cost, resale
/// (residual_fraction, capped at 1), maintenance, failure rate (annual_failure_rate), tariff
/// (the owned option's own, else the site's), hours per day (capped at 24; tokens_per_day
/// moves with it, see at_hours_per_day), rental rate (rate_per_gpu_hour or price_per_month
/// of the rental; when the compared "rental" is an api option: "API price per token", its
/// output_price_per_million with the input price moved by the same factor), discount rate.
/// A bar whose input is zero has zero width and is kept (the workbook shows it as such).
/// Throws EngineError unless 0 < swing_fraction <= 1.
std::vector<TornadoBar> tornado(const PlanInputs& inputs, const Comparison& pair,
                                double swing_fraction);

/// Total cost (sum of Plan flows, resale netted, plan currency) of every option, feasible or
/// not, at each utilization from `from` to `to` h/day in steps of `step` (points are
/// from + i x step, i = 0, 1, ...; `to` is included when it lies on the grid within 1e-9).
/// Everything else stays at the plan's value; tokens_per_day, when given, moves with the hours
/// (at_hours_per_day), as in break_even_hours_per_day, so the lines of the owned option and
/// its rental cross at OptionResult::break_even_hours_per_day. Throws EngineError unless
/// 0 <= from <= to <= 24 and step > 0 (and at most 100,000 points).
std::vector<SweepPoint> utilization_sweep(const PlanInputs& inputs, double from_hours_per_day,
                                          double to_hours_per_day, double step_hours_per_day);

/// The most draws monte_carlo() takes: it keeps every draw's totals for exact quantiles (8
/// bytes x (feasible options + 1) per draw: 56 MB for 6 options).
inline constexpr int kMaxRiskDraws = 1'000'000;

/// The most option cash flows one Monte Carlo computes: draws x options <= 10,000,000 (15 s of
/// CPU and 90 MB for 100,000 draws over 100 options, measured; 100,000 draws over 6 options
/// take 0.6 s). So 1,000,000 draws take up to 10 options, 100 options up to 100,000 draws.
inline constexpr long long kMaxRiskOptionDraws = 10'000'000;

/// Draws per block of the Monte Carlo (issue #19): block b (0, 1, ...) holds draws
/// b x kRiskBlockDraws up to the next block's first, drawn from its own std::mt19937_64 seeded
/// with risk_block_seed(seed, b). A fixed number, not one per thread, so that the draws, and
/// the result, are the same on any number of threads.
inline constexpr std::size_t kRiskBlockDraws = 1024;

/// The seed of the Monte Carlo's block `block`: the (block + 1)-th output of a SplitMix64
/// generator seeded with `seed` (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Vigna's splitmix64.c), i.e. SplitMix64's mix of
/// seed + (block + 1) x 0x9E3779B97F4A7C15 mod 2^64. Neighbouring seeds and blocks give
/// unrelated streams. Throws nothing.
std::uint64_t risk_block_seed(std::uint64_t seed, std::uint64_t block);

/// Called by monte_carlo() every few thousand draws with the draws done so far (for a
/// progress bar; the engine does no I/O itself). May be empty.
using RiskProgress = std::function<void(int draws_done, int draws_total)>;

/// The seeded Monte Carlo: `draws` joint draws of the RiskModel's inputs; per draw, the cash
/// flows of every feasible option recomputed with option_cash_flow into reused rows (fit,
/// speed and capacity do not depend on prices: prepared once); returns the share of draws in which
/// the owned option's NPV is strictly below the rental's, and P10/P50/P90 of each feasible option's
/// total cost (Plan order; infeasible options are left out). Without a pair (nullopt: no
/// owned option or no rental to compare) only the percentiles, RiskResult::compared false.
/// Reproducible: the random numbers are std::mt19937_64 (its sequence is fixed by the C++
/// standard) turned into distributions by our own transforms (risk.hpp), never by
/// std::uniform_real_distribution or std::normal_distribution, whose algorithms each
/// standard library chooses. Same inputs, seed and draws: the same result, on any number of
/// threads: the draws are split into blocks of kRiskBlockDraws, each with its own generator
/// (risk_block_seed), and the blocks are shared among `threads` threads (1..; the calling
/// thread is one of them; parallel_for, engine/base/parallel.hpp); each draw's figures are stored
/// by its index and the percentiles taken over all of them.
/// Quantiles: Hyndman & Fan (1996) definition 7, as Excel PERCENTILE.INC and NumPy's default.
/// `progress` is called on the calling thread only.
/// Memory: 8 bytes x (feasible options, + 1 with a pair) per draw (56 MB for 1,000,000 draws of
/// 6 options with a pair), plus one set of cash-flow rows per thread.
/// Throws EngineError on draws outside 1..kMaxRiskDraws, draws x options above
/// kMaxRiskOptionDraws, threads below 1 or a distribution outside its domain; an exception of a
/// worker thread is rethrown on the calling thread once every thread has been joined.
RiskResult monte_carlo(const PlanInputs& inputs, const Plan& plan,
                       const std::optional<Comparison>& pair, int draws, std::uint64_t seed,
                       const RiskModel& model = {}, const RiskProgress& progress = {},
                       int threads = 1);

/// Sensitivity of a plan, for the workbook's Sensitivity and Crossover sheets and the CLI:
/// the tornado (swing_fraction), the utilization sweep (the sweep grid) and, when draws > 0,
/// the Monte Carlo (draws, seed, risk_model). `plan` must be make_plan(inputs).
/// When comparison() finds no pair, tornado and risk are empty and `note` says why; the sweep
/// is always there. Throws EngineError on options outside their domain (see tornado,
/// utilization_sweep, monte_carlo).
Sensitivity analyse(const PlanInputs& inputs, const Plan& plan,
                    const SensitivityOptions& options = {});

}  // namespace gputco
