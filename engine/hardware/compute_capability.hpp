// NVIDIA compute capability of a device, and what the serving engines require of it.
#pragma once

#include <optional>
#include <string>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// The CUDA compute capability of an NVIDIA catalog device, x 10 (Volta V100 70, Turing T4
/// 75, Ampere A100 80 and GeForce 30 / A10 / A40 86, Ada 89, Hopper 90, Blackwell B200 100,
/// GeForce 50 / RTX PRO 120), from its catalog id as NVIDIA's table lists the products
/// (developer.nvidia.com/cuda-gpus, "CUDA GPU Compute Capability"). nullopt for a device this
/// table does not know (another vendor, an inline [device:] of the user's): then nothing is
/// refused on it by compute capability. Never throws.
std::optional<int> nvidia_compute_capability(const Device& device);

/// The architecture's name of a compute capability x 10 ("Volta", "Pascal", "Turing", ...).
std::string nvidia_architecture(int compute_capability);

}  // namespace gputco
