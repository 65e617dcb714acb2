#include "client/session.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>
#include <mosquitto.h>
#include <spdlog/spdlog.h>

namespace ganglion::mqtt {

namespace {

void init_library() {
  static std::once_flag once;
  std::call_once(once, [] { mosquitto_lib_init(); });
}

std::string error_text(int rc, int saved_errno) {
  if (rc == MOSQ_ERR_ERRNO && saved_errno != 0)
    return std::strerror(saved_errno);
  return mosquitto_strerror(rc);
}

double random01() {
  thread_local std::mt19937 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>{0.0, 1.0}(generator);
}

/// The CONNACK refusals that another attempt will not cure.
bool refused_for_good(int rc) {
  return rc == 2 /* identifier rejected */ || rc == 4 /* bad user name or password */
         || rc == 5 /* not authorised */;
}

} // namespace

session::session(client_settings settings, session_options options)
  : settings_(std::move(settings)), options_(std::move(options)) {
  init_library();
  client_ = mosquitto_new(settings_.client_id.c_str(), true, this);
  if (client_ == nullptr)
    throw connection_error(fmt::format("cannot make an MQTT client: {}", std::strerror(errno)));
  mosquitto_int_option(client_, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
  int rc = MOSQ_ERR_SUCCESS;
  if (settings_.user_password)
    rc = mosquitto_username_pw_set(client_, settings_.user_password->first.c_str(),
                                   settings_.user_password->second.c_str());
  if (rc == MOSQ_ERR_SUCCESS && settings_.ssl) {
    rc = mosquitto_void_option(client_, MOSQ_OPT_SSL_CTX, settings_.ssl.get());
    if (rc == MOSQ_ERR_SUCCESS)
      rc = mosquitto_int_option(client_, MOSQ_OPT_SSL_CTX_WITH_DEFAULTS, 0);
  }
  if (rc != MOSQ_ERR_SUCCESS) {
    mosquitto_destroy(client_);
    throw connection_error(
      fmt::format("cannot configure the MQTT client: {}", error_text(rc, errno)));
  }
  mosquitto_connect_callback_set(client_, &session::on_connect);
  mosquitto_subscribe_callback_set(client_, &session::on_subscribe);
  mosquitto_message_callback_set(client_, &session::on_message);
  mosquitto_log_callback_set(client_, &session::on_log);
  thread_ = std::thread([this] { run(); });
}

session::~session() {
  {
    std::lock_guard guard{mutex_};
    stop_ = true;
  }
  stop_changed_.notify_all();
  thread_.join();
  mosquitto_destroy(client_);
}

bool session::wait(std::chrono::nanoseconds delay) {
  std::unique_lock lock{mutex_};
  return !stop_changed_.wait_for(lock, delay, [this] { return stop_; });
}

void session::fail(const std::string& reason) {
  spdlog::error("{}: {}", options_.name, reason);
  if (options_.on_failed)
    options_.on_failed(reason);
}

void session::run() {
  std::uint32_t failures = 0; // attempts that failed since the last acknowledged connection
  bool first = true;
  while (true) {
    {
      std::lock_guard guard{mutex_};
      if (stop_)
        break;
    }
    acknowledged_ = false;
    auto why = connect_and_serve(first);
    first = false;
    if (why.empty())
      break; // stopping
    if (!refused_.empty())
      return fail(refused_);
    if (acknowledged_ && ever_subscribed_) {
      failures = 0;
      spdlog::warn("{}: disconnected from {} ({}); reconnecting", options_.name, settings_.url,
                   why);
    } else {
      ++failures;
      if (!ever_subscribed_ && failures >= options_.first_connect.attempts())
        return fail(fmt::format("cannot connect to {} after {} attempt(s): {}", settings_.url,
                                failures, why));
      std::uint64_t held_back = 0;
      if (failure_log_.allow(held_back))
        spdlog::warn("{}: cannot connect to {}: {}{}", options_.name, settings_.url, why,
                     core::held_back_note(held_back, "failed attempts"));
    }
    std::chrono::nanoseconds delay;
    if (!ever_subscribed_) {
      delay = options_.first_connect.delay(failures - 1, random01());
    } else {
      auto grown = options_.min_reconnect_delay * (1LL << std::min<std::uint32_t>(failures, 16));
      delay = std::min<std::chrono::nanoseconds>(grown, options_.max_reconnect_delay);
      delay = std::chrono::nanoseconds{
        static_cast<std::int64_t>(static_cast<double>(delay.count()) * (0.5 + 0.5 * random01()))};
    }
    if (!wait(delay))
      break;
  }
  mosquitto_disconnect(client_);
  for (int i = 0; i < 3 && mosquitto_loop(client_, 50, 1) == MOSQ_ERR_SUCCESS; ++i) {
  }
}

std::string session::connect_and_serve(bool first) {
  connack_problem_.clear();
  library_error_.clear();
  auto describe = [this](int rc, int saved_errno) {
    auto text = error_text(rc, saved_errno);
    return library_error_.empty() ? text : text + " (" + library_error_ + ")";
  };
  errno = 0;
  int rc = first ? mosquitto_connect_async(client_, settings_.address.host.c_str(),
                                           settings_.address.port, options_.keepalive_seconds)
                 : mosquitto_reconnect_async(client_);
  if (rc != MOSQ_ERR_SUCCESS)
    return describe(rc, errno);
  auto deadline = std::chrono::steady_clock::now() + options_.connect_timeout;
  while (true) {
    {
      std::lock_guard guard{mutex_};
      if (stop_)
        return {};
    }
    errno = 0;
    rc = mosquitto_loop(client_, 100, 1);
    if (rc != MOSQ_ERR_SUCCESS) {
      if (!connack_problem_.empty())
        return connack_problem_;
      return describe(rc, errno);
    }
    if (!acknowledged_ && std::chrono::steady_clock::now() > deadline)
      return fmt::format("no answer to CONNECT within {} ms", options_.connect_timeout.count());
  }
}

void session::on_connect(struct mosquitto* client, void* self, int rc) {
  auto* s = static_cast<session*>(self);
  if (rc != 0) {
    s->connack_problem_ = fmt::format("the broker refused the connection: {}",
                                      mosquitto_connack_string(rc));
    if (refused_for_good(rc))
      s->refused_ = s->connack_problem_;
    return;
  }
  s->acknowledged_ = true;
  int subscribe = mosquitto_subscribe(client, nullptr, s->options_.topic.c_str(), 0);
  if (subscribe != MOSQ_ERR_SUCCESS) {
    s->refused_ = fmt::format("cannot subscribe to {}: {}", s->options_.topic,
                              mosquitto_strerror(subscribe));
    mosquitto_disconnect(client);
  }
}

void session::on_subscribe(struct mosquitto* client, void* self, int, int count,
                           const int* granted) {
  auto* s = static_cast<session*>(self);
  if (count < 1 || granted[0] > 2) {
    s->refused_ = fmt::format("the broker refused the subscription to {}", s->options_.topic);
    mosquitto_disconnect(client);
    return;
  }
  bool again = s->ever_subscribed_;
  s->ever_subscribed_ = true;
  if (again)
    spdlog::info("{}: reconnected to {}, subscribed to {}", s->options_.name, s->settings_.url,
                 s->options_.topic);
  else
    spdlog::info("{}: connected to {}, subscribed to {}", s->options_.name, s->settings_.url,
                 s->options_.topic);
  if (s->options_.on_subscribed)
    s->options_.on_subscribed(again);
}

void session::on_log(struct mosquitto*, void* self, int level, const char* text) {
  if (level == MOSQ_LOG_ERR && text != nullptr)
    static_cast<session*>(self)->library_error_ = text;
}

void session::on_message(struct mosquitto*, void* self, const struct mosquitto_message* msg) {
  auto* s = static_cast<session*>(self);
  if (!s->options_.on_message)
    return;
  std::string_view payload{static_cast<const char*>(msg->payload),
                           static_cast<std::size_t>(std::max(msg->payloadlen, 0))};
  if (msg->payload == nullptr)
    payload = {};
  s->options_.on_message(msg->topic != nullptr ? msg->topic : "", msg->mid, payload);
}

} // namespace ganglion::mqtt
