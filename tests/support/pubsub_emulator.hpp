#pragma once

// The real Google Cloud Pub/Sub emulator (Java), as `gcloud beta emulators pubsub start` runs
// it, and the REST calls a test makes on it.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// The emulator's start script, from gcloud's SDK (the pubsub-emulator component, Debian
/// package google-cloud-cli-pubsub-emulator); empty with `why` set when it is not installed.
std::string pubsub_emulator_script(std::string& why);

/// One message a test pulled.
struct pulled_message {
  std::string ack_id;
  std::string id;
  std::string data; ///< decoded
  std::map<std::string, std::string> attributes;
};

/// The emulator on a free 127.0.0.1 port, its topics and subscriptions in memory; killed when
/// destroyed. It runs the script gcloud runs (`cloud-pubsub-emulator --host --port`), not
/// gcloud itself, whose Python parent would leave the JVM behind when killed.
class pubsub_emulator {
public:
  /// Starts it and waits until it answers (about 2 s). Throws std::runtime_error.
  pubsub_emulator();
  ~pubsub_emulator();

  /// `127.0.0.1:<port>` (PUBSUB_EMULATOR_HOST).
  std::string host() const;
  std::uint16_t port() const noexcept { return port_; }
  /// Stops it (SIGTERM, then SIGKILL).
  void stop();

  /// PUT of topic `projects/<project>/topics/<topic>`. Throws std::runtime_error.
  void create_topic(const std::string& project, const std::string& topic);
  /// PUT of subscription `sub` of `projects/<project>` on the topic (full name). Throws.
  void create_subscription(const std::string& project, const std::string& sub,
                           const std::string& topic_name);
  /// The subscription's `topic`, nullopt when it does not exist (404). Throws otherwise.
  std::optional<std::string> subscription_topic(const std::string& project, const std::string& sub);
  /// Publishes one message (`data` raw bytes, base64-encoded here) and returns its ID. Throws.
  std::string publish(const std::string& project, const std::string& topic, const std::string& data,
                      const std::map<std::string, std::string>& attributes = {});
  /// `:pull` with returnImmediately: what is deliverable now (acknowledged by none). Throws.
  std::vector<pulled_message> pull_now(const std::string& project, const std::string& sub);

private:
  std::string call(const std::string& method, const std::string& path, const std::string& body,
                   long* status = nullptr);

  std::uint16_t port_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
