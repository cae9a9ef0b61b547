// Sensitivity and risk: what the buy-versus-rent answer depends on, and how sure it is.
// (Contract shared by the engine, the CLI and the reports; implemented in sensitivity.cpp.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan.hpp"

namespace gputco {

/// One bar of the tornado: an uncertain input moved down and up by the swing, and what
/// happens to the buy-versus-rent difference (NPV of the owned option minus NPV of the
/// rental baseline; negative = buying is cheaper), plan currency.
struct TornadoBar {
  std::string input;          ///< "purchase price", "resale", "tariff", "hours per day", ...
  std::string key;            ///< the scenario key moved, e.g. "price_per_gpu"
  double low_value = 0;       ///< the input at -swing
  double high_value = 0;      ///< the input at +swing
  double difference_low = 0;  ///< buy - rent NPV difference with the input at low_value
  double difference_high = 0; ///< ... at high_value
};

/// Distribution of an uncertain input for the Monte Carlo.
enum class Distribution { uniform, triangular, normal };

/// The seeded Monte Carlo's result (same seed and draws give the same numbers).
struct RiskResult {
  int draws = 0;
  std::uint64_t seed = 0;
  double probability_buy_beats_rent = 0;  ///< share of draws where owned NPV < rental NPV
  struct OptionPercentiles {
    std::string id;
    double p10_total_cost = 0;
    double p50_total_cost = 0;
    double p90_total_cost = 0;
  };
  std::vector<OptionPercentiles> options;
};

/// Total cost of every option at one utilization (hours of use per day): the data behind
/// the crossover chart.
struct SweepPoint {
  double hours_per_day = 0;
  std::vector<double> total_cost;  ///< one per option, in Plan::options order
};

/// Everything the Sensitivity and Crossover sheets show.
struct Sensitivity {
  std::string owned_option_id;   ///< the owned option the tornado compares (the best owned)
  std::string rented_option_id;  ///< the rental baseline it is compared with
  double swing_fraction = 0.2;   ///< each input moved by +-20 %
  double base_difference = 0;    ///< buy - rent NPV difference at the base inputs
  std::vector<TornadoBar> tornado;  ///< sorted by width, widest first
  std::optional<RiskResult> risk;
  std::vector<SweepPoint> utilization_sweep;  ///< 0..24 h/day
};

}  // namespace gputco
