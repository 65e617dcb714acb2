#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/redis/spec.hpp"

// The redis kinds' readers (YAML → model) and rules (Argo's redis and redis_stream validate.go
// plus ganglion's).

namespace ganglion::redis::detail {

/// Reads `spec.redis.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Reads `spec.redisStream.<event>`.
stream_spec read_stream(const dsl::spec_read_input& in);

/// Argo's rules for `spec.redis.<event>`, plus ganglion's.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for `spec.redisStream.<event>`, plus ganglion's.
void check_stream(const stream_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::redis::detail
