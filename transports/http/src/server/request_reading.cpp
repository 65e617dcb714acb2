#include "server/request_reading.hpp"

#include <utility>

namespace ganglion::http::detail {

std::uint64_t body_limit_for(const std::optional<std::uint64_t>& route_limit) noexcept {
  return route_limit.value_or(unrouted_body_limit);
}

bool declared_too_large(const std::optional<std::uint64_t>& content_length,
                        std::uint64_t limit) noexcept {
  return content_length && *content_length > limit;
}

request make_request(std::string method, std::string target, header_list headers, std::string body,
                     std::string remote_address) {
  request r;
  r.method = std::move(method);
  r.target = std::move(target);
  auto q = r.target.find('?');
  r.path = r.target.substr(0, q);
  if (q != std::string::npos)
    r.query = r.target.substr(q + 1);
  r.headers = std::move(headers);
  r.body = std::move(body);
  r.remote_address = std::move(remote_address);
  return r;
}

} // namespace ganglion::http::detail
