// Units and conversions used across the engine.
//
// GB is 10^9 bytes, GiB is 2^30 bytes (DOMAIN "Units"). Model files, bandwidth and
// prices per GB are decimal; GPU memory is binary. Every quantity in the engine carries
// its unit in its name (`_gib`, `_gb`, `_gbps`, `_w`, `_kwh`, `_per_hour`, `_months`).
#pragma once

namespace gputco {

inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1073741824.0;  // 2^30
inline constexpr double kBytesPerMiB = 1048576.0;     // 2^20
inline constexpr double kMiBPerGiB = 1024.0;
inline constexpr double kWattsPerKilowatt = 1000.0;
inline constexpr double kSecondsPerHour = 3600.0;
inline constexpr int kMonthsPerYear = 12;

/// Bytes to GiB (2^30 bytes).
inline constexpr double bytes_to_gib(double bytes) {
  return bytes / kBytesPerGiB;
}
/// Bytes to GB (10^9 bytes).
inline constexpr double bytes_to_gb(double bytes) {
  return bytes / kBytesPerGB;
}
/// GiB to bytes.
inline constexpr double gib_to_bytes(double gib) {
  return gib * kBytesPerGiB;
}
/// GB to bytes.
inline constexpr double gb_to_bytes(double gb) {
  return gb * kBytesPerGB;
}

}  // namespace gputco
