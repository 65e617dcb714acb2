#include "source/delivery.hpp"

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/http/internal/webhook_data.hpp"

namespace ganglion::gitlab::detail {

http::push_outcome handle_delivery(const http::request& request,
                                   const delivery_settings& settings) {
  if (!settings.secret_token.empty()
      && !core::constant_time_equal(request.header("X-Gitlab-Token"), settings.secret_token))
    return http::push_outcome::refuse(400, "unauthorized", "token mismatch");
  std::string data = R"({"headers":)";
  data += http::detail::headers_to_json(request.headers, false);
  data += R"(,"body":)";
  std::string error;
  if (!dsl::append_go_json_raw(data, request.body, error))
    return http::push_outcome::refuse(400, "bad_request", "invalid event");
  dsl::append_go_json_omitempty(data, "metadata", settings.metadata);
  data += '}';
  return http::push_outcome::publish(std::move(data));
}

} // namespace ganglion::gitlab::detail
