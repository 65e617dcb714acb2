#include "client/client_config.hpp"

#include <cctype>
#include <charconv>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/read_secret.hpp"

namespace ganglion::kafka::detail {

namespace {

void on_log(const rd_kafka_t* rk, int level, const char* facility, const char* message) {
  if (auto* hooks = static_cast<client_hooks*>(rd_kafka_opaque(rk)); hooks && !hooks->quiet)
    hooks->log.on_log(level, facility, message);
}

void on_error(rd_kafka_t* rk, int code, const char* reason, void* opaque) {
  if (auto* hooks = static_cast<client_hooks*>(opaque); hooks && !hooks->quiet) {
    auto err = static_cast<rd_kafka_resp_err_t>(code);
    bool fatal = err == RD_KAFKA_RESP_ERR__FATAL;
    if (fatal) {
      char text[512];
      err = rd_kafka_fatal_error(rk, text, sizeof text);
      hooks->log.on_error(err, rd_kafka_err2name(err), text, true);
      return;
    }
    hooks->log.on_error(code, rd_kafka_err2name(err), reason, false);
  }
}

int on_stats(rd_kafka_t*, char* json, std::size_t size, void* opaque) {
  if (auto* hooks = static_cast<client_hooks*>(opaque); hooks && !hooks->quiet)
    hooks->log.on_stats(std::string_view(json, size));
  return 0; // librdkafka frees the buffer
}

std::string read_secret(const core::secret_store* secrets, const dsl::secret_key_selector& ref,
                        const char* field) {
  return core::read_secret_or_throw<config_error>(secrets, ref, field);
}

/// `version` as numbers (`2.8.0` → {2, 8, 0}); throws config_error when it is not one.
std::vector<int> parse_version(const std::string& version) {
  std::vector<int> parts;
  std::string_view rest = version;
  while (true) {
    int value = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (ec != std::errc{} || end == rest.data())
      throw config_error(fmt::format("version: invalid Kafka version '{}'", version));
    parts.push_back(value);
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (rest.empty())
      break;
    if (rest.front() != '.')
      throw config_error(fmt::format("version: invalid Kafka version '{}'", version));
    rest.remove_prefix(1);
  }
  if (parts.size() < 2 || parts.size() > 4)
    throw config_error(fmt::format("version: invalid Kafka version '{}'", version));
  return parts;
}

void apply_tls(client_config& cfg, const dsl::tls_config& tls, const core::secret_store* secrets) {
  if (tls.ca_cert_secret)
    set_property(cfg, "ssl.ca.pem", read_secret(secrets, *tls.ca_cert_secret, "tls.caCertSecret"),
                 "tls.caCertSecret");
  if (tls.client_cert_secret.has_value() != tls.client_key_secret.has_value())
    throw config_error("tls: clientCertSecret and clientKeySecret go together");
  if (tls.client_cert_secret) {
    set_property(cfg, "ssl.certificate.pem",
                 read_secret(secrets, *tls.client_cert_secret, "tls.clientCertSecret"),
                 "tls.clientCertSecret");
    set_property(cfg, "ssl.key.pem",
                 read_secret(secrets, *tls.client_key_secret, "tls.clientKeySecret"),
                 "tls.clientKeySecret");
  }
  if (tls.insecure_skip_verify) {
    set_property(cfg, "enable.ssl.certificate.verification", "false", "tls.insecureSkipVerify");
    set_property(cfg, "ssl.endpoint.identification.algorithm", "none", "tls.insecureSkipVerify");
  }
}

void apply_sasl(client_config& cfg, const dsl::sasl_config& sasl,
                const core::secret_store* secrets) {
  auto mechanism = sasl.mechanism.empty() ? std::string("PLAIN") : sasl.mechanism;
  for (auto& c : mechanism)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (mechanism != "PLAIN" && mechanism != "SCRAM-SHA-256" && mechanism != "SCRAM-SHA-512")
    throw config_error(fmt::format(
      "sasl.mechanism: {} is not supported yet (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)",
      sasl.mechanism));
  set_property(cfg, "sasl.mechanisms", mechanism, "sasl.mechanism");
  if (!sasl.user_secret || !sasl.password_secret)
    throw config_error("sasl: userSecret and passwordSecret are required");
  set_property(cfg, "sasl.username", read_secret(secrets, *sasl.user_secret, "sasl.userSecret"),
               "sasl.userSecret");
  set_property(cfg, "sasl.password",
               read_secret(secrets, *sasl.password_secret, "sasl.passwordSecret"),
               "sasl.passwordSecret");
}

void apply_version(client_config& cfg, const std::string& version) {
  if (version.empty())
    return;
  auto parts = parse_version(version);
  // Brokers before 0.10 cannot answer ApiVersionRequest: librdkafka must be told their version.
  if (parts[0] == 0 && parts[1] < 10) {
    set_property(cfg, "api.version.request", "false", "version");
    set_property(cfg, "broker.version.fallback", version, "version");
  }
}

} // namespace

void set_property(client_config& cfg, const std::string& name, const std::string& value,
                  const std::string& field) {
  char error[512];
  if (rd_kafka_conf_set(cfg.conf.get(), name.c_str(), value.c_str(), error, sizeof error) !=
      RD_KAFKA_CONF_OK)
    throw config_error(fmt::format("{}: {}", field.empty() ? name : field, error));
}

client_config make_client_config(const client_settings& s, const core::secret_store* secrets) {
  client_config cfg{conf_ptr{rd_kafka_conf_new()}, std::make_unique<client_hooks>(s.name)};
  if (s.url.empty())
    throw config_error("url: the Kafka broker list can't be empty");
  set_property(cfg, "bootstrap.servers", s.url, "url");
  set_property(cfg, "client.id", "ganglion");
  // librdkafka backs off up to 10 s between reconnects: a broker back after an outage would
  // wait that long. One attempt a second costs little and the connection log stays quiet.
  set_property(cfg, "reconnect.backoff.max.ms", "1000");
  bool tls = s.tls.has_value();
  bool sasl = s.sasl.has_value();
  set_property(cfg, "security.protocol",
               tls ? (sasl ? "SASL_SSL" : "SSL") : (sasl ? "SASL_PLAINTEXT" : "PLAINTEXT"));
  if (tls)
    apply_tls(cfg, *s.tls, secrets);
  if (sasl)
    apply_sasl(cfg, *s.sasl, secrets);
  apply_version(cfg, s.version);

  // Logging: librdkafka's lines go through connection_log (one line per broker state change).
  set_property(cfg, "log_level", spdlog::should_log(spdlog::level::debug) ? "7" : "6");
  set_property(cfg, "log.connection.close", "false");
  set_property(cfg, "statistics.interval.ms", "1000");
  rd_kafka_conf_set_log_cb(cfg.conf.get(), on_log);
  rd_kafka_conf_set_error_cb(cfg.conf.get(), on_error);
  rd_kafka_conf_set_stats_cb(cfg.conf.get(), on_stats);

  for (const auto& [name, value] : s.properties)
    set_property(cfg, name, value, "config." + name);
  return cfg;
}

namespace {

/// A message fetched but not read when close_consumer serves the consumer's queue: dropped. It
/// was not committed (no consumer of ganglion commits automatically), so it is read again by
/// whoever reads the partition next. Without a consume callback librdkafka aborts on such a
/// message (`rd_kafka_q_serve: assert: res != RD_KAFKA_OP_RES_PASS`), which a replica stopped
/// with events prefetched did. Reading (rd_kafka_consumer_poll, rd_kafka_consume_queue) returns
/// messages as before: only serving in callback mode reaches this.
void drop_unread_message(rd_kafka_message_t*, void*) {}

} // namespace

handle make_handle(rd_kafka_type_t type, client_config cfg) {
  rd_kafka_conf_set_opaque(cfg.conf.get(), cfg.hooks.get());
  if (type == RD_KAFKA_CONSUMER)
    rd_kafka_conf_set_consume_cb(cfg.conf.get(), drop_unread_message);
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(type, cfg.conf.get(), error, sizeof error);
  if (rk == nullptr)
    throw config_error(fmt::format("cannot create the Kafka client: {}", error));
  cfg.conf.release(); // rd_kafka_new took it
  return handle{rk, std::move(cfg.hooks)};
}

bool close_consumer(rd_kafka_t* rk, std::chrono::milliseconds timeout) {
  if (rk == nullptr)
    return true;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  if (rd_kafka_error_t* error = rd_kafka_consumer_close_queue(rk, queue)) {
    rd_kafka_error_destroy(error);
    rd_kafka_queue_destroy(queue);
    return false;
  }
  while (!rd_kafka_consumer_closed(rk) && std::chrono::steady_clock::now() < deadline)
    rd_kafka_queue_poll_callback(queue, 50); // serves the revocation
  rd_kafka_queue_destroy(queue);
  return rd_kafka_consumer_closed(rk) != 0;
}

void destroy_handle(rd_kafka_t* rk, std::unique_ptr<client_hooks> hooks) noexcept {
  struct shared_state {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
  };
  auto state = std::make_shared<shared_state>();
  std::shared_ptr<client_hooks> kept{std::move(hooks)};
  try {
    std::thread destroyer([rk, state, kept] {
      rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
      std::lock_guard guard{state->mutex};
      state->done = true;
      state->cv.notify_all();
    });
    std::unique_lock lock{state->mutex};
    if (state->cv.wait_for(lock, close_timeout, [&] { return state->done; })) {
      lock.unlock();
      destroyer.join();
      return;
    }
    lock.unlock();
    if (kept) {
      spdlog::warn("kafka {}: the client did not stop within {} ms (the cluster does not "
                   "answer); it finishes in the background",
                   kept->log.client(), close_timeout.count());
      kept->quiet = true;
    }
    destroyer.detach();
  } catch (const std::system_error&) {
    rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE); // no thread to spare
  }
}

} // namespace ganglion::kafka::detail
