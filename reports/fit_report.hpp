// The fit command's reports: the memory breakdown and the device table, as text and JSON.
// They format what the engine computed, never compute.
#pragma once

#include <string>
#include <vector>

#include "engine/finder.hpp"

namespace gputco {

/// The fit table: memory breakdown, then one row per device (count, usable GiB, verdict,
/// headroom, decode and aggregate tokens/s).
std::string fit_text(const FitRequest& request, const MemoryBreakdown& memory,
                     const std::vector<DeviceFit>& rows);

/// The fit command's JSON: { model, quant, context_tokens, concurrent_streams, kv_cache,
/// memory: {weights_gib, kv_cache_gib, overhead_gib, total_gib} (for one device),
/// results: [{ gpu, count, usable_gib, required_gib, headroom_gib, verdict,
/// decode_tokens_per_s, aggregate_tokens_per_s }] }.
std::string fit_json(const FitRequest& request, const MemoryBreakdown& memory,
                     const std::vector<DeviceFit>& rows);

}  // namespace gputco
