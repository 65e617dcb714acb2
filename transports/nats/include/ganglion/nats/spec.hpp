#pragma once

// The nats kind's model: `spec.nats.<event>` of an EventSource and `template.nats` of a
// trigger, as its spec step reads them.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::nats {

/// `auth` of a NATS client (one of them).
struct auth_spec {
  std::optional<dsl::basic_auth> basic;
  std::optional<dsl::secret_key_selector> token;
  std::optional<dsl::secret_key_selector> nkey;       ///< an nkey seed
  std::optional<dsl::secret_key_selector> credential; ///< a `.creds` file (JWT + seed)
};

/// `spec.nats.<event>`: a core NATS subject, optionally in a queue group.
struct event_spec {
  std::string url;
  std::string subject;
  std::string queue;
  bool json_body = false;
  std::optional<dsl::tls_config> tls;
  std::optional<auth_spec> auth;
  std::map<std::string, std::string> metadata;
};

/// `template.nats`: publish a message per firing (its `parameters` and `payload` are the
/// core's: dsl::trigger_action).
struct trigger_spec {
  std::string url;
  std::string subject;
  std::optional<dsl::tls_config> tls;
  std::optional<auth_spec> auth;
};

/// The spec step of the nats source (reads and checks `spec.nats.<event>` into event_spec).
dsl::kind_spec source_spec_step();

/// The spec step of the nats trigger (reads and checks `template.nats` into trigger_spec).
dsl::kind_spec trigger_spec_step();

} // namespace ganglion::nats
