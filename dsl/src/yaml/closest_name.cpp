#include "yaml/closest_name.hpp"

#include <algorithm>
#include <cctype>

namespace ganglion::dsl::detail {

namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Optimal string alignment distance: Levenshtein plus transpositions of neighbours.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

} // namespace

std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string_view>& known) {
  auto wanted = lowered(name);
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (auto candidate : known) {
    auto distance = edit_distance(wanted, lowered(candidate));
    if (distance < best_distance && distance * 3 < name.size()) {
      best = std::string(candidate);
      best_distance = distance;
    }
  }
  return best;
}

} // namespace ganglion::dsl::detail
