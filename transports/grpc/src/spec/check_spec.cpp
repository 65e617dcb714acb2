#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"
#include "client/target.hpp"

namespace ganglion::grpc::detail {

using namespace dsl::detail;

namespace {

void check_url(const std::string& url, const std::string& path, const load_context& cx) {
  std::string error;
  if (!url.empty() && !parse_target(url, error))
    cx.error(path, error);
}

} // namespace

void check_generic(const generic_spec& g, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  if (g.url.empty())
    cx.error(child_path(at, "url"), "server url can't be empty");
  check_url(g.url, child_path(at, "url"), cx);
  if (g.config.empty())
    cx.error(child_path(at, "config"), "config can't be empty");
  check_secret(g.auth_secret, child_path(at, "authSecret"), cx);
  if (g.auth_secret && g.insecure)
    cx.warning(child_path(at, "authSecret"),
               "the bearer token is sent in plain text: insecure is true");
}

void check_custom(const custom_spec& c, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  const auto& scope = *in.scope;
  if (c.server_url.empty())
    cx.error(child_path(path, "serverURL"), "custom trigger gRPC server url is not defined");
  check_url(c.server_url, child_path(path, "serverURL"), cx);
  if (!present(cx, child_path(path, "spec")))
    cx.error(child_path(path, "spec"), "trigger body can't be empty");
  if (c.secure && !c.cert_secret)
    cx.error(child_path(path, "certSecret"),
             "certSecret can't be nil when the trigger server connection is secure");
  check_secret(c.cert_secret, child_path(path, "certSecret"), cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, scope, cx,
                      "custom.parameters");
  validate_parameters(in.action->payload, child_path(path, "payload"), false, scope, cx,
                      "custom.payload");
}

} // namespace ganglion::grpc::detail
