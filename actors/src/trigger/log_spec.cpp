#include "trigger/log_spec.hpp"

#include <algorithm>

#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

namespace ganglion::core {

namespace {

log_spec read_log_spec(const dsl::spec_read_input& in) {
  return {static_cast<std::uint64_t>(
    std::max<std::int64_t>(0, dsl::detail::read_int(in.node, "intervalSeconds")))};
}

void check_log_spec(const log_spec&, const dsl::spec_check_input&) {}

} // namespace

dsl::kind_spec log_spec_step() {
  return dsl::make_kind_spec<log_spec>(&read_log_spec, &check_log_spec);
}

} // namespace ganglion::core
