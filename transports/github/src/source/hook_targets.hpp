#pragma once

// The hooks a github source keeps: one per organization, then one per repository (Argo's
// order), each found by its URL and events or created.

#include <memory>
#include <vector>

#include "client/hooks_api.hpp"
#include "ganglion/github/spec.hpp"
#include "ganglion/http/hook_keeper.hpp"

namespace ganglion::github::detail {

/// The targets of `spec` on `api`, creating hooks with `config` (the webhook's URL with its
/// endpoint, as Argo's FormattedURL).
std::vector<http::hook_target> hook_targets(const event_spec& spec,
                                            std::shared_ptr<const hooks_api> api,
                                            const hook_config& config);

/// The hook `spec` asks for, with the webhook secret's value `secret`.
hook_config hook_config_of(const event_spec& spec, const std::string& secret);

} // namespace ganglion::github::detail
