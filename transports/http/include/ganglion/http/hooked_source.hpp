#pragma once

#include <memory>
#include <optional>

#include "ganglion/core/source.hpp"
#include "ganglion/http/hook_registrar.hpp"
#include "ganglion/http/push_source.hpp"

namespace ganglion::http {

/// The hooks a push source keeps at its provider (a GitHub, Bitbucket or Gerrit webhook per
/// repository or project). Called from the registrar's thread and, on stop, the stopping one.
class provider_hooks {
public:
  virtual ~provider_hooks() = default;
  /// One registration pass: every hook in place, or why not.
  virtual std::optional<registration_failure> apply() = 0;
  /// Deletes the hooks registered so far (Argo's PostInactivate with deleteHookOnFinish).
  virtual void remove() = 0;
};

/// start_push_source for `route`, and, when `hooks` is set, a hook_registrar that keeps them
/// registered: a permanent failure goes to ctx.give_up, the others (after the retries) to
/// ctx.fail. Stopping the source stops the registrar, releases the route, then removes the
/// hooks when `delete_on_finish`. Throws core::source_error.
std::unique_ptr<core::source> start_hooked_source(const runtime& rt,
                                                  const core::source_context& ctx, push_route route,
                                                  std::shared_ptr<provider_hooks> hooks,
                                                  registrar_options options, bool delete_on_finish);

} // namespace ganglion::http
