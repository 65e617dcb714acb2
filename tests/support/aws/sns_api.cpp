#include "aws/sns_api.hpp"

#include <condition_variable>
#include <ctime>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "aws/signature_check.hpp"
#include "aws/sns_signer.hpp"
#include "aws/sts_role.hpp"
#include "files.hpp"
#include "http_request.hpp"
#include "loopback_acceptor.hpp"
#include "s3/sigv4.hpp"
#include "server_process.hpp"

namespace ganglion::test::aws {

namespace {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using form = std::map<std::string, std::string>;

const std::string xmlns = R"( xmlns="http://sns.amazonaws.com/doc/2010-03-31/")";

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
  return text;
}

sink_answer xml(int status, const std::string& body) {
  return {status, R"(<?xml version="1.0"?>)" "\n" + body, "text/xml", {}};
}

sink_answer error(int status, const std::string& code, const std::string& message) {
  return xml(status, "<ErrorResponse" + xmlns + "><Error><Type>Sender</Type><Code>" + code
                       + "</Code><Message>" + message
                       + "</Message></Error><RequestId>req</RequestId></ErrorResponse>");
}

sink_answer result(const std::string& action, const std::string& inner) {
  auto result = inner.empty() ? "" : "<" + action + "Result>" + inner + "</" + action + "Result>";
  return xml(200, "<" + action + "Response" + xmlns + ">" + result
                    + "<ResponseMetadata><RequestId>req</RequestId></ResponseMetadata></"
                    + action + "Response>");
}

/// Serves one PEM file over HTTPS, one connection at a time.
class https_file {
public:
  https_file(const std::string& cert, const std::string& key, std::string body)
    : body_(std::move(body)), tls_(asio::ssl::context::tls_server),
      acceptor_([this](asio::ip::tcp::socket& s) { serve(s); }) {
    tls_.use_certificate_chain(asio::buffer(cert));
    tls_.use_private_key(asio::buffer(key), asio::ssl::context::pem);
  }
  std::uint16_t port() const { return acceptor_.port(); }
  int fetches() const { return fetches_; }

private:
  void serve(asio::ip::tcp::socket& socket) {
    boost::system::error_code ec;
    asio::ssl::stream<asio::ip::tcp::socket&> stream{socket, tls_};
    stream.handshake(asio::ssl::stream_base::server, ec);
    if (ec)
      return;
    boost::beast::flat_buffer buffer;
    bhttp::request<bhttp::string_body> req;
    bhttp::read(stream, buffer, req, ec);
    if (ec)
      return;
    ++fetches_;
    bhttp::response<bhttp::string_body> res{bhttp::status::ok, req.version()};
    res.set(bhttp::field::content_type, "application/x-x509-ca-cert");
    res.keep_alive(false);
    res.body() = body_;
    res.prepare_payload();
    bhttp::write(stream, res, ec);
    stream.shutdown(ec);
  }

  std::string body_;
  asio::ssl::context tls_;
  std::atomic<int> fetches_{0};
  loopback_acceptor acceptor_;
};

} // namespace

struct sns_api::impl {
  impl(aws_server_options o, int version)
    : options(std::move(o)), signature_version(version), dir(temp_dir()) {
    write_self_signed_certificate(dir);
    certificate = read_file(dir + "/cert.pem");
    key = read_file(dir + "/key.pem");
    cert_host = std::make_unique<https_file>(certificate, key, certificate);
    api.set_handler([this](const recorded_request& r) { return answer(r); });
    worker = std::thread([this] { deliver_queued(); });
  }

  ~impl() {
    {
      std::lock_guard lock{mutex};
      stopping = true;
    }
    changed.notify_all();
    worker.join();
  }

  std::string cert_url() const {
    return "https://127.0.0.1:" + std::to_string(cert_host->port())
           + "/SimpleNotificationService-test.pem";
  }

  std::string sign(std::map<std::string, std::string> fields) const {
    return signed_sns_message(std::move(fields), key, cert_url(), signature_version);
  }

  std::string confirmation(const sns_subscription& s, const std::string& type) const {
    return sign({{"Type", type},
                 {"MessageId", "confirm-" + s.token},
                 {"Token", s.token},
                 {"TopicArn", s.topic_arn},
                 {"Message", "You have chosen to subscribe to the topic " + s.topic_arn
                               + ".\nTo confirm the subscription, visit the SubscribeURL "
                                 "included in this message."},
                 {"SubscribeURL", api.url("/") + "?Action=ConfirmSubscription&TopicArn="
                                    + s.topic_arn + "&Token=" + s.token},
                 {"Timestamp", now_iso()}});
  }

  /// Answers one Query API call (on the sink's thread).
  sink_answer answer(const recorded_request& r) {
    aws_request entry{"sns", "", r.body, "", {}};
    auto in = parse_query_form(r.body);
    entry.action = in["Action"];
    signed_call call{r.method, r.target, r.headers, r.body};
    auto out = [&]() -> sink_answer {
      if (auto e = check_signature(call, "sns", options, entry.signed_headers))
        return error(e->status, e->code, e->message);
      if (in["Version"] != "2010-03-31")
        return error(400, "InvalidAction", "Could not find operation for version");
      std::lock_guard lock{mutex};
      return act(in);
    }();
    if (auto code = out.body.find("<Code>"); out.status >= 300 && code != std::string::npos)
      entry.error_code = out.body.substr(code + 6, out.body.find("</Code>") - code - 6);
    std::lock_guard lock{mutex};
    log.push_back(std::move(entry));
    return out;
  }

  /// One action, with the mutex held.
  sink_answer act(form& in) {
    const auto& action = in["Action"];
    if (action == "Subscribe") {
      auto& protocol = in["Protocol"];
      auto& url = in["Endpoint"];
      if (in["TopicArn"].empty() || (protocol != "http" && protocol != "https"))
        return error(400, "InvalidParameter", "Invalid parameter: TopicArn or Protocol");
      if (url.rfind(protocol + "://", 0) != 0)
        return error(400, "InvalidParameter",
                     "Invalid parameter: Endpoint must match the specified protocol");
      for (const auto& s : subs)
        if (s.topic_arn == in["TopicArn"] && s.endpoint == url && s.confirmed)
          return result(action, "<SubscriptionArn>" + s.arn + "</SubscriptionArn>");
      sns_subscription s{in["TopicArn"] + ":sub-" + std::to_string(++next_id), in["TopicArn"],
                         protocol, url, "token-" + std::to_string(next_id)};
      subs.push_back(s);
      queue.push_back([this, s] {
        auto status = post(s.endpoint, "SubscriptionConfirmation",
                           confirmation(s, "SubscriptionConfirmation"));
        std::lock_guard lock{mutex};
        for (auto& held : subs)
          if (held.arn == s.arn)
            held.confirmation_status = status;
      });
      changed.notify_all();
      return result(action, "<SubscriptionArn>pending confirmation</SubscriptionArn>");
    }
    if (action == "ConfirmSubscription") {
      for (auto& s : subs)
        if (s.token == in["Token"] && s.topic_arn == in["TopicArn"]) {
          s.confirmed = true;
          return result(action, "<SubscriptionArn>" + s.arn + "</SubscriptionArn>");
        }
      return error(400, "InvalidParameter", "Invalid token");
    }
    if (action == "Unsubscribe") {
      for (auto it = subs.begin(); it != subs.end(); ++it)
        if (it->arn == in["SubscriptionArn"]) {
          queue.push_back([this, s = *it] {
            post(s.endpoint, "UnsubscribeConfirmation", confirmation(s, "UnsubscribeConfirmation"));
          });
          subs.erase(it);
          changed.notify_all();
          return result(action, "");
        }
      return error(404, "NotFound", "Subscription does not exist");
    }
    return error(400, "InvalidAction", "Not emulated: " + action);
  }

  long post(const std::string& url, const std::string& type, const std::string& body) const {
    auto fields = nlohmann::json::parse(body, nullptr, false);
    std::vector<std::string> headers{
      "x-amz-sns-message-type: " + type,
      "x-amz-sns-message-id: " + fields.value("MessageId", ""),
      "x-amz-sns-topic-arn: " + fields.value("TopicArn", ""),
      "Content-Type: text/plain; charset=UTF-8",
      "User-Agent: Amazon Simple Notification Service Agent"};
    return http_request("POST", url, body, headers).status;
  }

  void deliver_queued() {
    std::unique_lock lock{mutex};
    for (;;) {
      changed.wait(lock, [&] { return stopping || !queue.empty(); });
      if (stopping)
        return;
      auto next = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      next();
      lock.lock();
    }
  }

  aws_server_options options;
  int signature_version;
  std::string dir;
  std::string certificate;
  std::string key;
  std::unique_ptr<https_file> cert_host;
  http_sink api;
  mutable std::mutex mutex;
  std::condition_variable changed;
  bool stopping = false;
  std::deque<std::function<void()>> queue;
  std::vector<sns_subscription> subs;
  std::vector<aws_request> log;
  int next_id = 0;
  std::thread worker;
};

sns_api::sns_api(aws_server_options options, int signature_version)
  : impl_(std::make_unique<impl>(std::move(options), signature_version)) {}

sns_api::~sns_api() = default;

std::string sns_api::endpoint() const {
  auto url = impl_->api.url("/");
  return url.substr(0, url.size() - 1);
}

std::string sns_api::cert_url() const { return impl_->cert_url(); }
std::string sns_api::certificate() const { return impl_->certificate; }
std::string sns_api::key() const { return impl_->key; }
int sns_api::cert_fetches() const { return impl_->cert_host->fetches(); }

std::string sns_api::topic_arn(const std::string& name) const {
  return "arn:aws:sns:" + impl_->options.region + ":" + impl_->options.account_id + ":" + name;
}

std::vector<aws_request> sns_api::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->log;
}

std::vector<sns_subscription> sns_api::subscriptions() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->subs;
}

std::string sns_api::notification(const std::string& topic, const std::string& message,
                                  const std::string& subject) const {
  std::map<std::string, std::string> fields{
    {"Type", "Notification"},
    {"MessageId", "msg-" + std::to_string(std::hash<std::string>{}(message + subject))},
    {"TopicArn", topic},
    {"Message", message},
    {"Timestamp", now_iso()},
    {"UnsubscribeURL", impl_->api.url("/") + "?Action=Unsubscribe"}};
  if (!subject.empty())
    fields["Subject"] = subject;
  return impl_->sign(std::move(fields));
}

std::vector<long> sns_api::publish(const std::string& topic, const std::string& message,
                                   const std::string& subject) {
  auto body = notification(topic, message, subject);
  std::vector<std::string> urls;
  for (const auto& s : subscriptions())
    if (s.topic_arn == topic && s.confirmed)
      urls.push_back(s.endpoint);
  std::vector<long> out;
  for (const auto& url : urls)
    out.push_back(impl_->post(url, "Notification", body));
  return out;
}

long sns_api::deliver(const std::string& url, const std::string& type,
                      const std::string& body) const {
  return impl_->post(url, type, body);
}

} // namespace ganglion::test::aws
