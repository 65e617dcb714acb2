#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace ganglion::calendar::detail {

/// What `exclusionDates` hold, read as Argo's ParseExclusionDates reads them.
struct exclusion_dates {
  /// The days on which no tick fires (each entry's date; its time of day does not count).
  std::vector<std::chrono::year_month_day> days;
  /// Indexes of entries without the `EXDATE:` prefix, which Argo skips without a word.
  std::vector<std::size_t> unprefixed;
  /// The entries that do not parse: (index, the date as written).
  std::vector<std::pair<std::size_t, std::string>> invalid;
};

/// Reads `entries`: `EXDATE:` followed by a comma-separated list of `20060102T150405Z`.
exclusion_dates read_exclusion_dates(const std::vector<std::string>& entries);

} // namespace ganglion::calendar::detail
