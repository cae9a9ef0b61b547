// A box of GPUs written as a list: "2 x tesla-m40, 1 x t4" (the scenario key `gpus`, fit --gpus).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gputco {

/// One entry of a GPU list: how many cards of which device id.
struct GpuListEntry {
  int count = 1;
  std::string id;
};

/// Parses "N x ID, N x ID, ...": entries separated by commas; each "N x ID", "NxID", "N*ID" or a
/// bare "ID" (one card); spaces around the parts ignored; N a whole number from 1 to 4096.
/// Returns the entries in order, or throws std::invalid_argument with a message naming the
/// entry and what was expected ("'2 y t4': expected N x ID, e.g. 2 x tesla-m40"). An empty list,
/// an empty entry or more than 4096 cards in all is refused.
std::vector<GpuListEntry> parse_gpu_list(const std::string& text);

/// Parses a llama.cpp --tensor-split value: comma-separated non-negative numbers ("3,3,1",
/// "0.4, 0.4, 0.2"). Throws std::invalid_argument naming the part that is not one.
std::vector<double> parse_tensor_split(const std::string& text);

}  // namespace gputco
