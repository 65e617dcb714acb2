#include <atomic>
#include <strings.h>

#include "ganglion/http/server.hpp"

namespace ganglion::http {

std::string request::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key.size() == name.size() && ::strncasecmp(key.data(), name.data(), name.size()) == 0)
      return value;
  return {};
}

response text_response(int status, std::string body) {
  response r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

struct responder::state {
  explicit state(send_function f) : send(std::move(f)) {}
  ~state() {
    if (!done.exchange(true) && send)
      send(text_response(500, "the request was dropped without a response"));
  }
  send_function send;
  std::atomic<bool> done{false};
};

responder::responder(send_function send) : state_(std::make_shared<state>(std::move(send))) {}

void responder::operator()(response r) const {
  if (!state_->done.exchange(true))
    state_->send(std::move(r));
}

bool responder::replied() const noexcept {
  return state_->done.load();
}

} // namespace ganglion::http
