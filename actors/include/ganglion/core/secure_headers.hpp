#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::core {

/// Why a trigger's `secureHeaders[]` cannot be sent (the http and kafka triggers): one message
/// per header whose value is not read from a secret
/// (`secureHeaders <name>: configMapKeyRef is not supported yet`,
/// `secureHeaders <name>: valueFrom.secretKeyRef is missing`). Reads no secret.
std::vector<std::string> secure_header_problems(const std::vector<dsl::secure_header>& headers);

/// `headers` as name and value, in order, each value read from its `secretKeyRef` with
/// read_trigger_secret (field `secureHeaders`). Throws trigger_error: a header that
/// secure_header_problems reports (with its message), a secret that cannot be read.
std::vector<std::pair<std::string, std::string>>
read_secure_headers(const trigger_context& ctx, const std::vector<dsl::secure_header>& headers);

} // namespace ganglion::core
