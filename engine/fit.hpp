// Does a model fit: weights + KV cache + runtime overhead against usable device memory.
#pragma once

#include <string>

#include "engine/hardware.hpp"

namespace gputco {

/// What is being served: model, weight format, context and concurrency.
struct FitRequest {
  ModelArch model;
  Quant quant;
  int context_tokens = 8192;    ///< tokens kept in the cache per stream
  int concurrent_streams = 1;   ///< sequences decoded at once; multiplies the cache only
  KvCacheType kv_cache = KvCacheType::f16;
};

/// Memory needed, in GiB (2^30 bytes).
struct MemoryBreakdown {
  double weights_gib = 0;   ///< all parameters at the quant's bits per weight
  double kv_cache_gib = 0;  ///< all streams, full context (sliding layers capped at the window)
  double overhead_gib = 0;  ///< compute buffers + runtime context (per device, summed)
  double total_gib = 0;     ///< weights + kv_cache + overhead
};

/// How memory on a device is really available.
struct MemoryPolicy {
  /// Share of installed unified memory a runtime may allocate by default (Apple ~75 %,
  /// DOMAIN M12).
  double unified_usable_fraction = 0.75;
  /// Verdict thresholds: total / usable at or below `fits_max_ratio` fits; above it and
  /// up to 1.0 is tight; above 1.0 does not fit. The default 0.90 leaves ~10 % for longer
  /// conversations (DOMAIN M13 advises sizing +20 % over the context really used).
  double fits_max_ratio = 0.90;
};

enum class Verdict { fits, tight, does_not_fit };
std::string to_string(Verdict v);

/// The fit of one request on `count` devices of one kind.
struct FitResult {
  MemoryBreakdown memory;
  double usable_gib = 0;    ///< usable memory of all devices together
  double headroom_gib = 0;  ///< usable - total (negative when it does not fit)
  Verdict verdict = Verdict::does_not_fit;
};

/// Memory needed to serve `request` on `device_count` devices.
/// Overhead is counted once per device (each holds its own context and compute buffers).
/// Throws EngineError on non-positive context, streams, device_count or a model without
/// layers.
MemoryBreakdown estimate_memory(const FitRequest& request, int device_count = 1);

/// Usable memory of `count` devices, GiB: what a runtime can allocate for the model.
/// Discrete GPUs: binary-sized nameplate minus driver/context reserve and the runtime's
/// margin, per device. Unified memory: installed x policy.unified_usable_fraction.
double usable_memory_gib(const Device& device, int count, const MemoryPolicy& policy = {});

/// Fits `request` on `count` devices of `device`.
FitResult fit(const FitRequest& request, const Device& device, int count,
              const MemoryPolicy& policy = {});

/// The smallest device count (1..max_count) for which the request fits or is tight;
/// 0 if none does.
int devices_needed(const FitRequest& request, const Device& device, int max_count = 64,
                   const MemoryPolicy& policy = {});

}  // namespace gputco
