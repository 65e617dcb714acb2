#pragma once

// azurite, the Azure Storage emulator (npm package `azurite`, installed by `make test` at the
// version of tests/azurite/package-lock.json), its queue service alone, and the REST calls a
// test makes on it, each signed with the development account's Shared Key by this file's own
// signer (OpenSSL's HMAC), not ganglion's.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// The azurite-queue script (`<build>/azurite/node_modules/.bin/azurite-queue`, or
/// $GANGLION_AZURITE_QUEUE); empty with `why` set when it or node is not there.
std::string azurite_queue_script(std::string& why);

/// One message a test peeked at (visible, not taken).
struct peeked_message {
  std::string id;
  std::string text;
  std::int64_t dequeue_count = 0;
};

/// azurite-queue on a free 127.0.0.1 port with its own data folder; stopped when destroyed.
class azurite_server {
public:
  /// The development account, as azurite has it.
  static constexpr const char* account = "devstoreaccount1";
  static constexpr const char* key =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /// Starts it and waits until it listens. Throws std::runtime_error.
  azurite_server();
  ~azurite_server();
  azurite_server(const azurite_server&) = delete;
  azurite_server& operator=(const azurite_server&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  /// `http://127.0.0.1:<port>/devstoreaccount1`.
  std::string queue_endpoint() const;
  /// `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=…;QueueEndpoint=…`.
  std::string connection_string() const;
  /// Stops it (SIGTERM, then SIGKILL); its data folder stays.
  void stop();
  /// Starts it again on the same port and folder (after stop()). Throws std::runtime_error.
  void start();

  /// PUT of queue `name`. Throws std::runtime_error unless azurite answers 201 or 204.
  void create_queue(const std::string& name);
  /// Put Message with `text` (XML-escaped here); returns the message's id. Throws.
  std::string put_message(const std::string& queue, const std::string& text);
  /// Peek Messages (up to 32): the visible messages, taken by none. Throws.
  std::vector<peeked_message> peek(const std::string& queue);
  /// The queue's x-ms-approximate-messages-count (visible and invisible ones). Throws.
  std::int64_t message_count(const std::string& queue);
  /// A Shared Access Signature (query, without `?`) of the account for the queue service,
  /// every resource type, permissions `rwdlaup`, valid for an hour, signed here.
  std::string account_sas() const;

private:
  struct reply {
    long status = 0;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
  };
  reply call(const std::string& method, const std::string& path, const std::string& query,
             const std::string& body, const std::string& content_type);

  std::uint16_t port_;
  std::string data_dir_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
