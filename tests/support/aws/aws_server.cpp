#include "aws/aws_server.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "aws/signature_check.hpp"
#include "aws/sts_role.hpp"
#include "kube/text.hpp"
#include "s3/sigv4.hpp"

namespace ganglion::test::aws {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using request = bhttp::request<bhttp::string_body>;
using response = bhttp::response<bhttp::string_body>;
using json = nlohmann::json;
using clock = std::chrono::steady_clock;

const std::string lambda_prefix = "/2015-03-31/functions/";

struct message {
  std::string id;
  std::string body;
  json attributes; ///< MessageAttributes, or null
  std::string receipt;
  clock::time_point visible_at{};
  int receives = 0;
};

struct queue {
  std::string owner;
  std::deque<message> messages;
  std::vector<std::string> deleted;
};

} // namespace

struct aws_server::impl {
  explicit impl(aws_server_options o) : options(std::move(o)) {}

  aws_server_options options;
  asio::io_context context;
  tcp::acceptor acceptor{context};
  std::thread thread;
  mutable std::mutex mutex;
  std::map<std::string, queue> queues;
  std::map<std::string, lambda_function> functions;
  std::vector<lambda_invocation> invoked;
  std::vector<aws_request> log;
  std::uint64_t next_id = 0;

  std::string endpoint() const {
    return "http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port());
  }

  /// The queue a QueueUrl names, or null (called with the mutex held).
  queue* queue_of(const json& in) {
    auto url = in.value("QueueUrl", "");
    auto slash = url.rfind('/');
    auto found = queues.find(slash == std::string::npos ? url : url.substr(slash + 1));
    return found == queues.end() ? nullptr : &found->second;
  }

  /// Takes up to `max` visible messages of `q` (called with the mutex held).
  json take(queue& q, int max, int visibility) {
    json out = json::array();
    auto now = clock::now();
    for (auto& m : q.messages) {
      if (static_cast<int>(out.size()) >= max)
        break;
      if (m.visible_at > now)
        continue;
      m.visible_at = now + std::chrono::seconds(visibility);
      ++m.receives;
      m.receipt = m.id + "#" + std::to_string(++next_id);
      json item{{"MessageId", m.id},
                {"ReceiptHandle", m.receipt},
                {"MD5OfBody", ""},
                {"Body", m.body},
                {"Attributes", {{"SentTimestamp", "1700000000000"}}}};
      if (!m.attributes.is_null())
        item["MessageAttributes"] = m.attributes;
      out.push_back(std::move(item));
    }
    return out;
  }

  using reply = std::function<void(response)>;

  /// Answers SQS action `action`; may answer later (a long poll).
  void sqs(const std::string& action, const json& in, const reply& done,
           const std::function<response(unsigned, const json&)>& make) {
    std::unique_lock lock{mutex};
    auto send = [&](response r) {
      lock.unlock();
      done(std::move(r));
    };
    auto no_queue = json{{"__type", "com.amazonaws.sqs#QueueDoesNotExist"},
                         {"message", "The specified queue does not exist."}};
    if (action == "GetQueueUrl") {
      auto found = queues.find(in.value("QueueName", ""));
      auto owner = in.value("QueueOwnerAWSAccountId", options.account_id);
      if (found == queues.end() || found->second.owner != owner)
        return send(make(400, no_queue));
      return send(make(200, {{"QueueUrl", endpoint() + "/" + owner + "/" + found->first}}));
    }
    auto* q = queue_of(in);
    if (!q)
      return send(make(400, no_queue));
    if (action == "DeleteMessage") {
      auto handle = in.value("ReceiptHandle", "");
      auto m = std::find_if(q->messages.begin(), q->messages.end(),
                            [&](const message& x) { return x.receipt == handle; });
      if (m == q->messages.end())
        return send(make(400, {{"__type", "com.amazonaws.sqs#ReceiptHandleIsInvalid"},
                               {"message", "The input receipt handle is invalid."}}));
      q->deleted.push_back(m->id);
      q->messages.erase(m);
      return send(make(200, json::object()));
    }
    if (action != "ReceiveMessage")
      return send(make(400, {{"__type", "com.amazonaws.sqs#UnsupportedOperation"},
                             {"message", "Not emulated: " + action}}));
    auto deadline = clock::now() + std::chrono::seconds(in.value("WaitTimeSeconds", 0));
    lock.unlock();
    poll(in, deadline, done, make);
  }

  /// ReceiveMessage's long poll: answers once a message is visible or at `deadline`.
  void poll(const json& in, clock::time_point deadline, const reply& done,
            const std::function<response(unsigned, const json&)>& make) {
    std::unique_lock lock{mutex};
    auto* q = queue_of(in);
    auto got = q ? take(*q, in.value("MaxNumberOfMessages", 1), in.value("VisibilityTimeout", 30))
                 : json::array();
    lock.unlock();
    if (!got.empty() || clock::now() >= deadline) {
      json out = json::object();
      if (!got.empty())
        out["Messages"] = std::move(got);
      return done(make(200, out));
    }
    auto timer = std::make_shared<asio::steady_timer>(context, std::chrono::milliseconds(20));
    timer->async_wait([this, timer, in, deadline, done, make](const error_code& ec) {
      if (!ec)
        poll(in, deadline, done, make);
    });
  }

  /// Answers an Invoke of the function `name` names.
  response invoke(const request& req, const std::string& name, const std::string& type) {
    response res;
    std::lock_guard lock{mutex};
    auto found = functions.find(name);
    if (found == functions.end()) {
      res.result(404);
      res.set("x-amzn-ErrorType", "ResourceNotFoundException");
      res.body() = json{{"Type", "User"}, {"message", "Function not found: " + name}}.dump();
      return res;
    }
    invoked.push_back({name, type, req.body()});
    if (type == "Event") {
      res.result(202);
    } else if (type == "DryRun") {
      res.result(204);
    } else {
      res.result(200);
      res.body() = found->second.result;
      if (!found->second.function_error.empty())
        res.set("X-Amz-Function-Error", found->second.function_error);
    }
    res.set("X-Amz-Executed-Version", "$LATEST");
    return res;
  }

  void answer(const request& req, const reply& done) {
    auto target = std::string(req.target());
    auto entry = std::make_shared<aws_request>();
    entry->body = req.body();
    auto amz_target = std::string(req["X-Amz-Target"]);
    if (amz_target.rfind("AmazonSQS.", 0) == 0) {
      entry->service = "sqs";
      entry->action = amz_target.substr(10);
    } else if (target.rfind(lambda_prefix, 0) == 0) {
      entry->service = "lambda";
      entry->action = "Invoke";
    } else if (target == "/"
               && std::string(req[bhttp::field::content_type])
                      .rfind("application/x-www-form-urlencoded", 0)
                    == 0) {
      entry->service = "sts";
      entry->action = parse_query_form(req.body())["Action"];
    }
    auto finish = [this, entry, keep = req.keep_alive(), version = req.version(),
                   done](response res) mutable {
      res.version(version);
      res.keep_alive(keep);
      res.set(bhttp::field::server, "ganglion-test-aws");
      res.prepare_payload();
      {
        std::lock_guard lock{mutex};
        log.push_back(*entry);
      }
      done(std::move(res));
    };
    auto error_reply = [&](const aws_error& e) {
      entry->error_code = e.code;
      response res;
      res.result(e.status);
      res.set(bhttp::field::content_type, "application/x-amz-json-1.0");
      res.set("x-amzn-ErrorType", e.code + ":http://internal.amazon.com/coral/");
      res.body() = json{{"__type", "com.amazon.coral.service#" + e.code},
                        {"message", e.message}}
                     .dump();
      finish(std::move(res));
    };
    if (req.method() != bhttp::verb::post || entry->service.empty())
      return error_reply({404, "UnknownOperationException", "Not emulated: " + target});
    signed_call call{std::string(req.method_string()), target, {}, req.body()};
    for (const auto& field : req)
      call.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    if (auto e = check_signature(call, entry->service, options, entry->signed_headers))
      return error_reply(*e);
    if (entry->service == "sts") {
      auto sts = answer_sts(parse_query_form(req.body()), options.roles);
      entry->error_code = sts.error_code;
      response res;
      res.result(sts.status);
      res.set(bhttp::field::content_type, "text/xml");
      res.body() = std::move(sts.body);
      return finish(std::move(res));
    }
    if (entry->service == "lambda") {
      auto rest = target.substr(lambda_prefix.size());
      auto slash = rest.find('/');
      if (slash == std::string::npos || rest.substr(slash) != "/invocations")
        return error_reply({404, "UnknownOperationException", "Not emulated: " + target});
      auto res = invoke(req, s3::percent_decode(rest.substr(0, slash)),
                        std::string(req["X-Amz-Invocation-Type"]));
      if (res.result_int() >= 300)
        entry->error_code = "ResourceNotFoundException";
      return finish(std::move(res));
    }
    auto in = json::parse(req.body(), nullptr, false);
    if (std::string(req[bhttp::field::content_type]) != "application/x-amz-json-1.0"
        || !in.is_object())
      return error_reply({400, "SerializationException", "Start of structure expected"});
    sqs(entry->action, in, [finish](response res) mutable { finish(std::move(res)); },
        [entry](unsigned status, const json& body) {
          response res;
          res.result(status);
          res.set(bhttp::field::content_type, "application/x-amz-json-1.0");
          if (status >= 300) {
            auto code = body.value("__type", "");
            entry->error_code = code.substr(code.find('#') + 1);
            res.set("x-amzn-query-error", "AWS.SimpleQueueService." + entry->error_code
                                            + ";Sender");
          }
          res.body() = body.dump();
          return res;
        });
  }

  void accept() {
    acceptor.async_accept([this](const error_code& ec, tcp::socket socket) {
      if (ec)
        return;
      std::make_shared<connection>(this, std::move(socket))->read();
      accept();
    });
  }

  /// One client connection, served with keep-alive.
  struct connection : std::enable_shared_from_this<connection> {
    connection(impl* owner, tcp::socket s) : server(owner), stream(std::move(s)) {}

    void read() {
      message = {};
      bhttp::async_read(stream, buffer, message,
                        [self = shared_from_this()](const error_code& ec, std::size_t) {
                          if (!ec)
                            self->server->answer(self->message, [self](response res) {
                              self->respond(std::move(res));
                            });
                        });
    }

    void respond(response out) {
      auto res = std::make_shared<response>(std::move(out));
      bhttp::async_write(stream, *res,
                         [self = shared_from_this(), res](const error_code& ec, std::size_t) {
                           if (ec || !res->keep_alive()) {
                             error_code ignored;
                             self->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
                             return;
                           }
                           self->read();
                         });
    }

    impl* server;
    beast::tcp_stream stream;
    beast::flat_buffer buffer;
    request message;
  };
};

aws_server::aws_server(aws_server_options options)
  : impl_(std::make_unique<impl>(std::move(options))) {
  tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), 0};
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([server = impl_.get()] { server->context.run(); });
}

aws_server::~aws_server() {
  impl_->context.stop();
  impl_->thread.join();
}

std::string aws_server::endpoint() const {
  return impl_->endpoint();
}

const aws_server_options& aws_server::options() const noexcept {
  return impl_->options;
}

std::vector<aws_request> aws_server::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->log;
}

void aws_server::create_queue(const std::string& name, const std::string& owner) {
  std::lock_guard lock{impl_->mutex};
  impl_->queues[name].owner = owner.empty() ? impl_->options.account_id : owner;
}

std::string aws_server::send_message(
  const std::string& queue_name, const std::string& body,
  const std::vector<std::pair<std::string, message_attribute>>& attributes) {
  std::lock_guard lock{impl_->mutex};
  message m;
  m.id = "msg-" + std::to_string(++impl_->next_id);
  m.body = body;
  for (const auto& [name, a] : attributes) {
    json value{{"DataType", a.data_type}};
    if (a.data_type.rfind("Binary", 0) == 0)
      value["BinaryValue"] = kube::base64_encode(a.binary_value);
    else
      value["StringValue"] = a.string_value;
    m.attributes[name] = std::move(value);
  }
  impl_->queues[queue_name].messages.push_back(std::move(m));
  return impl_->queues[queue_name].messages.back().id;
}

std::vector<std::string> aws_server::deleted(const std::string& queue_name) const {
  std::lock_guard lock{impl_->mutex};
  auto found = impl_->queues.find(queue_name);
  return found == impl_->queues.end() ? std::vector<std::string>{} : found->second.deleted;
}

std::size_t aws_server::depth(const std::string& queue_name) const {
  std::lock_guard lock{impl_->mutex};
  auto found = impl_->queues.find(queue_name);
  return found == impl_->queues.end() ? 0 : found->second.messages.size();
}

int aws_server::receive_count(const std::string& queue_name, const std::string& id) const {
  std::lock_guard lock{impl_->mutex};
  auto found = impl_->queues.find(queue_name);
  if (found == impl_->queues.end())
    return 0;
  for (const auto& m : found->second.messages)
    if (m.id == id)
      return m.receives;
  return 0;
}

void aws_server::expire_visibility(const std::string& queue_name) {
  std::lock_guard lock{impl_->mutex};
  for (auto& m : impl_->queues[queue_name].messages)
    m.visible_at = {};
}

void aws_server::put_function(const std::string& name, lambda_function function) {
  std::lock_guard lock{impl_->mutex};
  impl_->functions[name] = std::move(function);
}

std::vector<lambda_invocation> aws_server::invocations() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->invoked;
}

} // namespace ganglion::test::aws
