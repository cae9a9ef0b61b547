// Queueing under load, for the latency targets of the serving model (engine/serving/serving.hpp):
// the 99th percentile of a Poisson count (prefills arriving in one decode step) and the
// waiting time of an M/M/c queue (requests waiting for a free batch slot).
//
// Sources: the M/M/c (Erlang C) waiting-time distribution P(W > t) = C(c, a) exp(-(c mu -
// lambda) t), with C from the Erlang B recursion B(k) = a B(k-1) / (k + a B(k-1)) and
// C = c B / (c - a (1 - B)) (L. Kleinrock, Queueing Systems, Vol. 1, 1975, section 3.5; the
// recursion is the numerically stable form of Erlang's formula, Jagerman 1974). Exponential
// service is conservative for LLM requests, whose decode time varies less: an M/D/c queue
// waits about half as long in heavy traffic (Kingman's approximation, (c_a^2 + c_s^2) / 2).
#pragma once

namespace gputco {

/// Smallest n with P(N <= n) >= `probability` for N ~ Poisson(`mean`): exact summation up to
/// a mean of 200, the normal approximation with continuity correction above. 0 for a mean of
/// 0. Throws EngineError unless mean >= 0 (finite) and 0 < probability < 1.
double poisson_quantile(double mean, double probability);

/// Probability that an arriving request waits (Erlang C) in an M/M/c queue of `servers`
/// servers offered `offered_load` = arrival rate x mean service time (erlangs). 1 when
/// offered_load >= servers (unstable). Throws EngineError unless servers >= 1 and the load is
/// finite and >= 0.
double erlang_c(int servers, double offered_load);

/// The `probability` quantile (0.99 for p99) of the waiting time before service in an M/M/c
/// queue: 0 when the chance of waiting is below 1 - probability, else
/// ln(C / (1 - probability)) / (servers / service_s - arrival_per_s), seconds; infinity when the
/// queue is unstable (arrival_per_s x service_s >= servers). Throws EngineError on servers < 1,
/// service_s <= 0, arrival_per_s < 0 or probability outside (0, 1).
double queue_wait_quantile_s(int servers, double arrival_per_s, double service_s,
                             double probability);

/// The mean waiting time of the same queue: C / (servers / service_s - arrival_per_s), seconds;
/// infinity when unstable. Throws like queue_wait_quantile_s.
double queue_wait_mean_s(int servers, double arrival_per_s, double service_s);

/// Both at once (one Erlang C): the mean and the `probability` quantile of the wait, seconds.
struct QueueWait {
  double mean_s = 0;
  double quantile_s = 0;
};
/// Throws like queue_wait_quantile_s.
QueueWait queue_wait_s(int servers, double arrival_per_s, double service_s, double probability);

}  // namespace gputco
