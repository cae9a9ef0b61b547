#include "cli/freed_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gputco::cli {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Setting the mmap threshold also stops glibc's own adjustment of both thresholds.
  mallopt(M_TRIM_THRESHOLD, 8 << 20);
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

}  // namespace gputco::cli
