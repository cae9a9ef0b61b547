// Keeping freed memory in the process for commands that make and drop the same objects many
// times (sweep: a parsed scenario, its resolution and its plan at every value).
#pragma once

namespace gputco::cli {

/// Tells the C library's allocator to keep memory that is freed for the next allocation
/// instead of returning it to the kernel (glibc: a trim threshold of 256 MiB, and blocks up
/// to 32 MiB from the heap instead of their own mappings); elsewhere it does nothing. The
/// memory held is at most what the process held at its peak. Issue #19: a sweep of 1,000
/// values gave the top of the heap back and faulted it in again at every value, 4,000 page
/// faults and a fifth of its CPU in the kernel. Process-wide and lasting; throws nothing.
void keep_freed_memory();

}  // namespace gputco::cli
