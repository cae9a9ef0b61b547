// Suggestions for a mistyped id or key ("did you mean 'rtx-3090'?"): the one home of the
// edit distance every message uses (scenario keys and sections, catalog ids, sweep keys,
// command-line ids).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gputco {

/// `text` with ASCII letters in lower case (ids compare ignoring case: "H100" is "h100");
/// other bytes, UTF-8 included, unchanged. No locale is consulted.
std::string ascii_lowercase(std::string text);

/// The optimal string alignment distance between `a` and `b` (Damerau-Levenshtein without
/// editing a substring twice): the fewest insertions, deletions, substitutions and swaps of
/// two adjacent characters that turn one into the other. A swap counts one, the commonest
/// typo ("rtx-3900" is 1 from "rtx-3090", 2 from "rtx-3070"); plain Levenshtein counts it two.
/// Compares bytes, case-sensitively. Source: F. J. Damerau, "A technique for computer
/// detection and correction of spelling errors", CACM 7(3), 1964; the restricted (OSA)
/// recurrence as in Boytsov, "Indexing methods for approximate dictionary searching", 2011.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate nearest to `word` by edit_distance (case-insensitive), if it is close
/// enough to be a likely typo (distance <= max(2, |word| / 3)); "" otherwise. A candidate
/// that contains the word, or the reverse (3 characters or more: "3090" -> "rtx-3090"), or that
/// the word begins once the separators '_', '-', '.' and ' ' are left out (2 characters or
/// more: "Q3" -> "Q3_K_S"), counts as distance 1; one that differs only in separators ("Q4KM",
/// "Q4_K_M") as distance 0; on a tie a candidate that begins with the word (separators left
/// out) wins over an edit ("h100" -> "h100-sxm", not "p100"), then the smaller true distance,
/// then the first candidate (callers pass ids in catalog order).
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

/// "; did you mean 'X'?" with the nearest candidate, or "" when none is close: the tail every
/// "unknown ..." message appends.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace gputco
