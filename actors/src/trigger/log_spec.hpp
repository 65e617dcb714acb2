#pragma once

// The `log` trigger's spec step (`template.log`), apart from its executor: it links without
// CAF, so the manifest fuzz target (tests/fuzz/manifest_fuzz.cpp) loads with it.

#include <cstdint>

#include "ganglion/dsl/kind_spec.hpp"

namespace ganglion::core {

/// `template.log`.
struct log_spec {
  std::uint64_t interval_seconds = 0;
};

/// Reads `template.log` into a log_spec (a negative `intervalSeconds` is 0); no other rules.
dsl::kind_spec log_spec_step();

} // namespace ganglion::core
