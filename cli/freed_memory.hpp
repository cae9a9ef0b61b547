// Keeping freed memory in the process for commands that make and drop the same objects many
// times (sweep: a parsed scenario, its resolution and its plan at every value).
#pragma once

namespace gputco::cli {

/// Tells the C library's allocator to keep memory that is freed for the next allocation
/// instead of returning it to the kernel (glibc: up to 8 MiB free at the top of the heap are
/// kept, and blocks up to 1 MiB come from the heap instead of their own mappings, which larger
/// ones still get and return when freed); elsewhere it does nothing. Issue #19: a sweep of
/// 1,000 values gave the top of the heap back and faulted it in again at every value, 4,000 page
/// faults and a fifth of its CPU in the kernel. Process-wide and lasting; throws nothing.
void keep_freed_memory();

}  // namespace gputco::cli
