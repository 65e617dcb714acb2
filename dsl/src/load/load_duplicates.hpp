#pragma once

#include "ganglion/dsl/load.hpp"

namespace ganglion::dsl::detail {

/// Reports every EventSource, Sensor or EventBus whose kind and name an earlier document of
/// `result` (in this file or another) already has, at both places: ganglion runs all
/// namespaces' objects side by side and tells them apart by kind and name only.
void report_duplicates(load_result& result);

} // namespace ganglion::dsl::detail
