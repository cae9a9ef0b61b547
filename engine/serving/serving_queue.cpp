#include "engine/serving/serving_queue.hpp"

#include <cmath>
#include <limits>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

/// Above this mean the Poisson quantile takes the normal approximation (error < 1 count).
constexpr double kExactPoissonMaxMean = 200;

void check_queue(int servers, double arrival_per_s, double service_s) {
  GPUTCO_REQUIRE(servers >= 1, "a queue needs at least one server, got " << servers);
  GPUTCO_REQUIRE(std::isfinite(service_s) && service_s > 0,
                 "service time must be positive, got " << service_s);
  GPUTCO_REQUIRE(std::isfinite(arrival_per_s) && arrival_per_s >= 0,
                 "arrival rate must not be negative, got " << arrival_per_s);
}

/// z with Phi(z) = p, by bisection on erfc (no library inverse in C++20); the 99th
/// percentile, which every caller asks for, is a constant.
double normal_quantile(double p) {
  constexpr double kZ99 = 2.3263478740408408;
  if (p == 0.99) return kZ99;
  double lo = -10, hi = 10;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

double poisson_quantile(double mean, double probability) {
  GPUTCO_REQUIRE(std::isfinite(mean) && mean >= 0, "Poisson mean must be >= 0, got " << mean);
  GPUTCO_REQUIRE(probability > 0 && probability < 1,
                 "probability must be in (0, 1), got " << probability);
  if (mean == 0) return 0;
  if (mean > kExactPoissonMaxMean) {
    const double z = normal_quantile(probability);
    return std::max(0.0, std::ceil(mean + z * std::sqrt(mean) - 0.5));
  }
  double term = std::exp(-mean);  // P(N = 0)
  double cumulative = term;
  int n = 0;
  while (cumulative < probability && n < 100000) {
    ++n;
    term *= mean / n;
    cumulative += term;
  }
  return n;
}

double erlang_c(int servers, double offered_load) {
  GPUTCO_REQUIRE(servers >= 1, "a queue needs at least one server, got " << servers);
  GPUTCO_REQUIRE(std::isfinite(offered_load) && offered_load >= 0,
                 "offered load must be a non-negative number, got " << offered_load);
  if (offered_load >= servers) return 1.0;
  if (offered_load == 0) return 0.0;
  double erlang_b = 1.0;
  for (int k = 1; k <= servers; ++k) {
    erlang_b = offered_load * erlang_b / (k + offered_load * erlang_b);
  }
  return servers * erlang_b / (servers - offered_load * (1.0 - erlang_b));
}

QueueWait queue_wait_s(int servers, double arrival_per_s, double service_s, double probability) {
  check_queue(servers, arrival_per_s, service_s);
  GPUTCO_REQUIRE(probability > 0 && probability < 1,
                 "probability must be in (0, 1), got " << probability);
  const double load = arrival_per_s * service_s;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (load >= servers) return {kInfinity, kInfinity};
  const double waits = erlang_c(servers, load);
  const double drain_per_s = servers / service_s - arrival_per_s;
  const double tail = 1.0 - probability;
  return {waits / drain_per_s, waits <= tail ? 0.0 : std::log(waits / tail) / drain_per_s};
}

double queue_wait_quantile_s(int servers, double arrival_per_s, double service_s,
                             double probability) {
  return queue_wait_s(servers, arrival_per_s, service_s, probability).quantile_s;
}

double queue_wait_mean_s(int servers, double arrival_per_s, double service_s) {
  return queue_wait_s(servers, arrival_per_s, service_s, 0.5).mean_s;
}

}  // namespace gputco
