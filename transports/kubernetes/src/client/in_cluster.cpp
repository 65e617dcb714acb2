#include "ganglion/kubernetes/config.hpp"

#include "client/pem.hpp"
#include "client/text_file.hpp"

namespace ganglion::kubernetes {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw config_error("in-cluster configuration: " + what);
}

std::string read_or_fail(const std::string& path) {
  std::string why;
  auto content = detail::read_text_file(path, why);
  if (!content)
    fail(why);
  return *content;
}

} // namespace

cluster_config read_in_cluster(const std::string& host, const std::string& port,
                               const std::string& service_account_dir) {
  if (host.empty() || port.empty())
    fail("$KUBERNETES_SERVICE_HOST and $KUBERNETES_SERVICE_PORT must both be set");
  cluster_config out;
  bool ipv6 = host.find(':') != std::string::npos && host.front() != '[';
  out.server = "https://" + (ipv6 ? "[" + host + "]" : host) + ":" + port;
  out.token_file = service_account_dir + "/token";
  if (detail::trimmed(read_or_fail(out.token_file)).empty())
    fail(out.token_file + ": empty");
  auto ca_file = service_account_dir + "/ca.crt";
  out.ca_pem = read_or_fail(ca_file);
  auto problem = detail::pem_problem(out.ca_pem, detail::pem_kind::certificates);
  if (!problem.empty())
    fail(ca_file + ": " + problem);
  std::string ignored;
  auto ns = detail::read_text_file(service_account_dir + "/namespace", ignored);
  if (ns && !detail::trimmed(*ns).empty())
    out.default_namespace = detail::trimmed(*ns);
  out.origin = "in-cluster";
  return out;
}

} // namespace ganglion::kubernetes
