#include "client/listen_request.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::minio::detail {

using namespace dsl::detail;

namespace {

void require_secret(const std::optional<dsl::secret_key_selector>& secret, const std::string& path,
                    const load_context& cx) {
  if (!secret)
    cx.error(path, path.substr(path.rfind('.') + 1) + " is required");
  else
    check_secret(secret, path, cx);
}

} // namespace

void check_event(const event_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require_secret(spec.access_key, child_path(path, "accessKey"), cx);
  require_secret(spec.secret_key, child_path(path, "secretKey"), cx);
  check_secret(spec.ca_certificate, child_path(path, "caCertificate"), cx);
  if (require(spec.endpoint, child_path(path, "endpoint"), "endpoint", cx))
    if (auto problem = endpoint_problem(spec.endpoint); !problem.empty())
      cx.error(child_path(path, "endpoint"), problem);
  auto bucket = child_path(path, "bucket");
  if (!spec.bucket)
    cx.error(bucket, "bucket is required (Argo's source stops without one)");
  else if (require(spec.bucket->name, child_path(bucket, "name"), "bucket name", cx))
    if (auto problem = bucket_name_problem(spec.bucket->name); !problem.empty())
      cx.error(child_path(bucket, "name"), problem);
  for (std::size_t i = 0; i < spec.events.size(); ++i)
    if (spec.events[i].empty())
      cx.error(item_path(child_path(path, "events"), i), "unknown event \"\"");
}

} // namespace ganglion::minio::detail
