// The GPU finder: one request against many devices, best first.
#pragma once

#include <vector>

#include "engine/fit.hpp"
#include "engine/speed.hpp"

namespace gputco {

/// The fit and speed of one request on `count` devices of one kind.
struct DeviceFit {
  Device device;
  int count = 1;
  FitResult fit;
  SpeedEstimate speed;  ///< zero when the model does not fit
};

/// Fits `request` on `count` of each device (or, when count is 0, on the fewest devices
/// of that kind that hold it, up to 8) and orders the results best first: fits, then tight,
/// then does not fit; within each, faster decode first, then by device id.
/// Throws EngineError on a bad request.
std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, SplitMode split = SplitMode::layer,
                                    const MemoryPolicy& policy = {});

}  // namespace gputco
