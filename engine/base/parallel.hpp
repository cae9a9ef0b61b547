// Work split over a few threads by index, with results that do not depend on the thread count.
#pragma once

#include <cstddef>
#include <functional>

namespace gputco {

/// The threads a command uses when none is asked for: std::thread::hardware_concurrency(),
/// at least 1 and at most `cap` (2 by default: the machines gputco is sized for have two
/// cores, and a third thread on them only adds switching).
int default_thread_count(int cap = 2);

/// Runs body(index, thread) for every index in [0, count), on `threads` threads (clamped to
/// 1..count; thread 0 is the calling thread, the others are std::threads joined before the
/// return). Indices are handed out one at a time in increasing order (an atomic counter), so
/// which thread runs an index varies from run to run: `body` must write only what belongs to
/// its index (or to its thread's own state, by `thread`), and then the result is the same for
/// any thread count. When a body throws, no thread takes a new index, every thread is joined,
/// and the exception of the lowest index that threw is rethrown. threads = 1 runs the indices
/// in order on the calling thread, with no std::thread.
void parallel_for(std::size_t count, int threads,
                  const std::function<void(std::size_t index, int thread)>& body);

}  // namespace gputco
