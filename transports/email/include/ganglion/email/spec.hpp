#pragma once

// The email kind's model: `template.email` of a trigger, as its spec step reads it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::email {

/// `template.email` (Argo's EmailTrigger; its `parameters` are the core's: dsl::trigger_action).
struct trigger_spec {
  std::string username;
  std::optional<dsl::secret_key_selector> smtp_password;
  std::string host;
  std::int64_t port = 0;
  std::vector<std::string> to;
  std::string from;
  std::string subject;
  std::string body;
};

/// The spec step of the email trigger (reads and checks `template.email`).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::email
