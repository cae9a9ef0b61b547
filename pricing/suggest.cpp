#include "pricing/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <utility>

namespace gputco {

std::string ascii_lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
  });
  return text;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Three rows of the (|a| + 1) x (|b| + 1) table: the swap looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

namespace {

/// `text` without the separators ids and keys use ('_', '-', '.', ' '): "q4_k_m" -> "q4km".
std::string without_separators(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](char c) { return c == '_' || c == '-' || c == '.' || c == ' '; }),
             text.end());
  return text;
}

}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string w = ascii_lowercase(word);
  const std::string w_bare = without_separators(w);
  std::string best;
  // (distance with containment counted as 1, 0 when the candidate begins with the word, true
  // distance): "tarif" is as near to "tariff_per_kwh" (contains it) as to "tariff", and
  // "tariff" wins on the true distance; of two candidates at 1, the one that begins with the
  // word wins over a one-letter edit ("h100" -> "h100-sxm", not "p100"; "a100" -> an A100,
  // not "a10"), but not one that merely holds it ("workloads" -> "workload", not
  // "option:workloads").
  std::tuple<std::size_t, int, std::size_t> best_distance{std::string::npos, 1, std::string::npos};
  for (const auto& candidate : candidates) {
    const std::string c = ascii_lowercase(candidate);
    const std::size_t distance = edit_distance(w, c);
    std::size_t counted = distance;
    bool begins_with_word = false;
    if (w.size() >= 3 && (c.find(w) != std::string::npos || w.find(c) != std::string::npos)) {
      counted = std::min(distance, std::size_t{1});
    }
    // Only the separators differ ("Q4KM" is Q4_K_M, not the Q4_0 two edits away), or the word
    // begins the candidate without them ("Q3" -> "Q3_K_M", "h100" -> "h100-sxm").
    const std::string c_bare = without_separators(c);
    if (!w_bare.empty() && c_bare == w_bare) {
      counted = 0;
    } else if (w_bare.size() >= 2 && c_bare.rfind(w_bare, 0) == 0) {
      counted = std::min(counted, std::size_t{1});
      begins_with_word = true;
    }
    const std::tuple<std::size_t, int, std::size_t> key{counted, begins_with_word ? 0 : 1,
                                                        distance};
    if (key < best_distance) {
      best_distance = key;
      best = candidate;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, w.size() / 3);
  return std::get<0>(best_distance) <= limit ? best : "";
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string hint = nearest(word, candidates);
  return hint.empty() ? "" : "; did you mean '" + hint + "'?";
}

}  // namespace gputco
