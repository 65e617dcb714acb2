#pragma once

// The openwhisk kind's model: `template.openWhisk` of a trigger, as its spec step reads it.

#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::openwhisk {

/// `template.openWhisk` (Argo's OpenWhiskTrigger; its `parameters` and `payload` are the core's:
/// dsl::trigger_action).
struct trigger_spec {
  /// The API host: a URL, or `host[:port]` reached over https as OpenWhisk's Go client does.
  std::string host;
  std::string version = "v1";
  std::string namespace_ = "_";
  std::optional<dsl::secret_key_selector> auth_token;
  std::string action_name;
};

/// The spec step of the openWhisk trigger (reads and checks `template.openWhisk`).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::openwhisk
