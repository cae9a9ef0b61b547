#include "engine/finder.hpp"

#include <algorithm>

namespace gputco {

std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, SplitMode split, const MemoryPolicy& policy) {
  constexpr int kMaxAutoCount = 8;
  std::vector<DeviceFit> rows;
  rows.reserve(devices.size());
  for (const auto& device : devices) {
    DeviceFit row;
    row.device = device;
    row.count = count;
    if (count == 0) {
      const int needed = devices_needed(request, device, kMaxAutoCount, policy);
      row.count = needed > 0 ? needed : 1;
    }
    row.fit = fit(request, device, row.count, policy);
    if (row.fit.verdict != Verdict::does_not_fit) {
      row.speed = estimate_speed(
          SpeedRequest{request, row.count, split, default_backend(device), 0}, device);
    }
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const DeviceFit& a, const DeviceFit& b) {
    if (a.fit.verdict != b.fit.verdict) return a.fit.verdict < b.fit.verdict;
    if (a.speed.decode_tokens_per_s != b.speed.decode_tokens_per_s) {
      return a.speed.decode_tokens_per_s > b.speed.decode_tokens_per_s;
    }
    return a.device.id < b.device.id;
  });
  return rows;
}

}  // namespace gputco
