#include "artifact/fetchers.hpp"
#include "artifact/http_get.hpp"
#include "ganglion/core/redact.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kubernetes::detail {

std::string read_url_artifact(const url_artifact& url, const fetch_options& options,
                              const std::string& path) {
  auto at = dsl::detail::child_path(path, "path");
  http_get get;
  get.url = url.path;
  get.follow_redirects = true;
  get.verify_tls = url.verify_cert;
  auto got = perform_get(get, options, path, at);
  if (got.status != 200)
    throw artifact_error(at + ": GET " + core::redact_url_userinfo(url.path) + " answered HTTP " + std::to_string(got.status)
                         + " (200 is required)");
  return std::move(got.body);
}

} // namespace ganglion::kubernetes::detail
