// What users get from a replica at the plan's load (issue #43 item 2): a box sized by the
// serving model (engine/serving/serving.hpp) runs each replica at an operating point (the batch the
// latency targets allow, or the most memory holds); the demand a plan puts on a replica is
// usually less, and its users then see shorter steps: more tokens/s each, a lower TPOT and
// TTFT. These are the serving model's own step and queue figures at that load.
#pragma once

#include "engine/serving/serving.hpp"

namespace gputco {

/// One replica's figures at a load.
struct ServingAtLoad {
  /// Sequences in flight on the replica, the time average (Little's law: arrival rate x the
  /// time a request holds its slot, its own prefill and its decode).
  double in_flight = 0;
  /// The batch one request's decode steps carry on average: itself and the others in flight,
  /// 1 + in_flight x (slots - 1) / slots (1 at light load, every slot when all are busy); for a
  /// workload of streams always in flight, the streams themselves.
  double batch = 1;
  double output_tokens_per_s = 0;  ///< the replica's output at this load
  /// The load over the replica's capacity at its operating point (ServingCapacity::
  /// output_tokens_per_s_per_replica); above 1 the replica cannot keep up (figures at its
  /// slots).
  double utilization = 0;
  double per_user_tokens_per_s = 0;  ///< 1 / mean TPOT
  double tpot_ms = 0;                ///< mean time per output token
  double tpot_p99_ms = 0;            ///< the p99 count of the others' prompts during a decode
  double ttft_ms = 0;                ///< own prefill + the mean wait for a slot
  double ttft_p99_ms = 0;            ///< own prefill + the p99 wait for a slot (M/M/c)
};

/// The figures of one replica of `capacity` (its layout, compute precision and slots:
/// batch_per_replica) serving `request` on `device` at `output_tokens_per_s` output tokens per
/// second, the requests arriving at random (Poisson: the rate / output_tokens a second).
/// In flight n solves Little's law n = the rate x cycle(b(n)) (a request holds its slot for
/// output x the replica's time per step, its own prefill included:
/// engine/serving/serving_batch.hpp), b(n) = 1 + n (B - 1) / B with B the slots; then TPOT and
/// per-user speed are the step model's at batch b (mean TPOT = step + (b - 1) x input / output x
/// prefill per token; p99: the 99th percentile of a Poisson count of b - 1 prompts), and TTFT = own
/// prefill at batch b
/// + the wait for one of B slots (M/M/B, service = the slot's occupancy: mean and p99,
/// engine/serving/serving_queue.hpp). A rate above what B slots serve is taken at B (utilization
/// above 1 says so; its wait is infinite, reported as the figures at batch B with no wait:
/// the plan sizes units so that it never is). Throws EngineError on a negative or non-finite
/// rate, and what serving_capacity throws for the request.
ServingAtLoad serving_at_rate(const ServingRequest& request, const Device& device,
                              const ServingCapacity& capacity, double output_tokens_per_s);

/// The figures of one replica of `capacity` carrying `streams` conversations that are always
/// decoding (a workload of concurrent_streams without a demand in tokens): batch =
/// max(1, min(streams, slots)), no queue (TTFT = own prefill at that batch), output = batch x
/// per-user speed. Throws EngineError on streams below 0 or not finite.
ServingAtLoad serving_at_streams(const ServingRequest& request, const Device& device,
                                 const ServingCapacity& capacity, double streams);

}  // namespace gputco
