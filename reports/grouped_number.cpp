#include "reports/grouped_number.hpp"

#include <fmt/format.h>

namespace gputco {

std::string grouped_number(double x, int decimals) {
  const std::string text = fmt::format("{:.{}f}", x, decimals);
  const std::size_t dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : text.substr(dot);
  std::string out;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    // No comma right after the sign: "-123" stays "-123".
    if (i > 0 && (whole.size() - i) % 3 == 0 && whole[i - 1] != '-') out += ',';
    out += whole[i];
  }
  return out + rest;
}

}  // namespace gputco
