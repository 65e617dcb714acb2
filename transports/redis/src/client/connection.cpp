#include "client/connection.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include "client/stream_socket.hpp"

namespace ganglion::redis {

waker::waker() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (fd_ < 0)
    throw connection_error(std::string{"eventfd: "} + std::strerror(errno));
}

waker::~waker() {
  ::close(fd_);
}

void waker::wake() const {
  std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(fd_, &one, sizeof one);
}

namespace {

reply convert(const redisReply* r) {
  reply out;
  switch (r->type) {
  case REDIS_REPLY_STRING:
    out.kind = reply::type::string;
    out.text.assign(r->str, r->len);
    break;
  case REDIS_REPLY_STATUS:
    out.kind = reply::type::status;
    out.text.assign(r->str, r->len);
    break;
  case REDIS_REPLY_ERROR:
    out.kind = reply::type::error;
    out.text.assign(r->str, r->len);
    break;
  case REDIS_REPLY_INTEGER:
    out.kind = reply::type::integer;
    out.integer = r->integer;
    break;
  case REDIS_REPLY_ARRAY:
    out.kind = reply::type::array;
    out.elements.reserve(r->elements);
    for (std::size_t i = 0; i < r->elements; ++i)
      out.elements.push_back(convert(r->element[i]));
    break;
  default:
    out.kind = reply::type::nil;
  }
  return out;
}

} // namespace

struct connection::state {
  std::unique_ptr<stream_socket> socket;
  std::unique_ptr<redisReader, decltype(&redisReaderFree)> reader{redisReaderCreate(),
                                                                  &redisReaderFree};
  std::chrono::milliseconds timeout{};
};

connection::connection(std::unique_ptr<state> s) : state_(std::move(s)) {}
connection::~connection() = default;

std::unique_ptr<connection> connection::open(const server_settings& settings,
                                             const waker& wake) {
  std::string error;
  auto to = split_host_address(settings.host_address, error);
  if (!to)
    throw connection_error(error);
  auto s = std::make_unique<state>();
  s->timeout = settings.timeout;
  auto where = fmt::format("{}{}", settings.tls ? "tls://" : "", settings.host_address);
  try {
    s->socket = stream_socket::connect(*to, settings.tls,
                                       stream_socket::clock::now() + settings.timeout, wake.fd());
  } catch (const connection_error& e) {
    throw connection_error(fmt::format("cannot connect to {}: {}", where, e.what()));
  }
  std::unique_ptr<connection> conn{new connection(std::move(s))};
  conn->address_ = settings.host_address;
  auto run = [&](const std::vector<std::string>& args, const char* what) {
    auto r = conn->call(args);
    if (!r)
      throw connection_error(fmt::format("{}: stopped while connecting", where));
    if (r->is_error())
      throw connection_error(fmt::format("{} on {} failed: {}", what, where, r->text));
  };
  if (!settings.password.empty()) {
    if (!settings.username.empty())
      run({"AUTH", settings.username, settings.password}, "AUTH");
    else
      run({"AUTH", settings.password}, "AUTH");
  }
  if (settings.db != 0)
    run({"SELECT", std::to_string(settings.db)}, "SELECT");
  run({"PING"}, "PING");
  return conn;
}

void connection::send(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  char* command = nullptr;
  int n = redisFormatCommandArgv(&command, static_cast<int>(args.size()), argv.data(),
                                 lengths.data());
  if (n < 0)
    throw connection_error("cannot encode a command");
  std::unique_ptr<char, decltype(&redisFreeCommand)> owned{command, &redisFreeCommand};
  state_->socket->write_all({command, static_cast<std::size_t>(n)},
                            stream_socket::clock::now() + state_->timeout);
}

std::optional<reply> connection::read(std::chrono::milliseconds timeout) {
  auto deadline = stream_socket::clock::now() + timeout;
  char buffer[16384];
  for (;;) {
    void* parsed = nullptr;
    if (redisReaderGetReply(state_->reader.get(), &parsed) != REDIS_OK)
      throw connection_error(fmt::format("{}: not a RESP reply: {}", address_,
                                         state_->reader->errstr));
    if (parsed != nullptr) {
      std::unique_ptr<redisReply, decltype(&freeReplyObject)> owned{
        static_cast<redisReply*>(parsed), &freeReplyObject};
      return convert(owned.get());
    }
    std::size_t n = state_->socket->read_some(buffer, sizeof buffer, deadline);
    if (n == 0)
      return std::nullopt;
    redisReaderFeed(state_->reader.get(), buffer, n);
  }
}

std::optional<reply> connection::call(const std::vector<std::string>& args) {
  send(args);
  auto started = stream_socket::clock::now();
  auto r = read(state_->timeout);
  if (!r && stream_socket::clock::now() - started >= state_->timeout)
    throw connection_error(fmt::format("{}: no reply to {} within {} ms", address_, args.front(),
                                       state_->timeout.count()));
  return r;
}

std::string describe(const reply& r) {
  switch (r.kind) {
  case reply::type::error:
    return r.text;
  case reply::type::string:
  case reply::type::status:
    return "\"" + r.text + "\"";
  case reply::type::integer:
    return std::to_string(r.integer);
  case reply::type::array:
    return fmt::format("an array of {}", r.elements.size());
  case reply::type::nil:
    break;
  }
  return "nil";
}

} // namespace ganglion::redis
