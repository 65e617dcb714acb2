#include "s3/listen.hpp"

#include <chrono>
#include <ctime>
#include <deque>
#include <sstream>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace ganglion::test::s3 {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

namespace {

std::string query_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+')
      out += ' ';
    else if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else
      out += text[i];
  }
  return out;
}

bool starts_with(const std::string& text, const std::string& head) {
  return text.compare(0, head.size(), head) == 0;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size()
         && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool listen_filter::matches(const std::string& key, const std::string& event) const {
  if (!starts_with(key, prefix) || !ends_with(key, suffix))
    return false;
  if (events.empty())
    return true;
  for (const auto& wanted : events)
    if (wanted == event
        || (ends_with(wanted, "*") && starts_with(event, wanted.substr(0, wanted.size() - 1))))
      return true;
  return false;
}

bool is_listen_query(const std::string& query) {
  std::stringstream in(query);
  std::string item;
  while (std::getline(in, item, '&'))
    if (starts_with(item, "ping=") || starts_with(item, "events="))
      return true;
  return false;
}

listen_filter parse_listen_query(const std::string& bucket, const std::string& query) {
  listen_filter out;
  out.bucket = bucket;
  std::stringstream in(query);
  std::string item;
  while (std::getline(in, item, '&')) {
    auto eq = item.find('=');
    auto name = item.substr(0, eq);
    auto value = eq == std::string::npos ? std::string{} : query_decode(item.substr(eq + 1));
    if (name == "events")
      out.events.push_back(value);
    else if (name == "prefix")
      out.prefix = value;
    else if (name == "suffix")
      out.suffix = value;
  }
  return out;
}

std::string notification_line(const std::string& bucket, const std::string& key,
                              const std::string& event, std::int64_t size) {
  static std::atomic<std::uint64_t> sequence{0x17D6B2A3C0000000};
  char when[32];
  auto now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S.000Z", &utc);
  auto seq = ++sequence;
  std::ostringstream sequencer;
  sequencer << std::uppercase << std::hex << seq;
  nlohmann::ordered_json object = {{"key", key}, {"sequencer", sequencer.str()}};
  if (!starts_with(event, "s3:ObjectRemoved")) {
    object = {{"key", key},
              {"size", size},
              {"eTag", "d41d8cd98f00b204e9800998ecf8427e"},
              {"contentType", "application/octet-stream"},
              {"userMetadata", {{"content-type", "application/octet-stream"}}},
              {"sequencer", sequencer.str()}};
  }
  nlohmann::ordered_json record = {
    {"eventVersion", "2.0"},
    {"eventSource", "minio:s3"},
    {"awsRegion", ""},
    {"eventTime", when},
    {"eventName", event},
    {"userIdentity", {{"principalId", "AKIAGANGLIONTEST"}}},
    {"requestParameters",
     {{"principalId", "AKIAGANGLIONTEST"}, {"region", ""}, {"sourceIPAddress", "127.0.0.1"}}},
    {"responseElements",
     {{"x-amz-id-2", "dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8"},
      {"x-amz-request-id", "17D6B2A3C5F1D3E0"},
      {"x-minio-deployment-id", "1cf0b5f4-59b0-4d4c-8a6a-fd1dc6c1c2c6"},
      {"x-minio-origin-endpoint", "http://127.0.0.1:9000"}}},
    {"s3",
     {{"s3SchemaVersion", "1.0"},
      {"configurationId", "Config"},
      {"bucket",
       {{"name", bucket},
        {"ownerIdentity", {{"principalId", "AKIAGANGLIONTEST"}}},
        {"arn", "arn:aws:s3:::" + bucket}}},
      {"object", object}}},
    {"source",
     {{"host", "127.0.0.1"},
      {"port", ""},
      {"userAgent", "MinIO (linux; amd64) minio-go/v7.0.70"}}}};
  return nlohmann::ordered_json{{"Records", nlohmann::ordered_json::array({record})}}.dump();
}

struct listen_hub::stream_state : std::enable_shared_from_this<stream_state> {
  stream_state(beast::tcp_stream s, listen_filter f) : stream(std::move(s)), filter(std::move(f)) {}

  void send(std::string line) {
    queue.push_back(std::move(line));
    if (queue.size() == 1)
      write_next();
  }

  void write_next() {
    if (queue.empty() || closed)
      return;
    auto chunk = std::make_shared<std::string>(queue.front());
    asio::async_write(
      stream.socket(), bhttp::make_chunk(asio::buffer(*chunk)),
      [self = shared_from_this(), chunk](const boost::system::error_code& ec, std::size_t) {
        self->queue.pop_front();
        if (ec) {
          self->closed = true;
          return;
        }
        self->write_next();
      });
  }

  beast::tcp_stream stream;
  listen_filter filter;
  std::deque<std::string> queue;
  bool closed = false;
};

void listen_hub::adopt(beast::tcp_stream stream, unsigned version, listen_filter filter) {
  auto state = std::make_shared<stream_state>(std::move(stream), std::move(filter));
  auto res = std::make_shared<bhttp::response<bhttp::empty_body>>(bhttp::status::ok, version);
  res->set(bhttp::field::server, "ganglion-test-s3");
  res->set(bhttp::field::content_type, "application/json");
  res->chunked(true);
  auto serializer = std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*res);
  bhttp::async_write_header(
    state->stream, *serializer,
    [this, state, res, serializer](const boost::system::error_code& ec, std::size_t) {
      if (ec)
        return;
      streams_.push_back(state);
      count_ = streams_.size();
    });
}

void listen_hub::publish(const std::string& bucket, const std::string& key,
                         const std::string& event, const std::string& line) {
  asio::post(context_, [this, bucket, key, event, line] {
    for (const auto& s : streams_)
      if (!s->closed && s->filter.bucket == bucket && s->filter.matches(key, event))
        s->send(line + "\n");
  });
}

void listen_hub::publish_raw(const std::string& bucket, const std::string& line) {
  asio::post(context_, [this, bucket, line] {
    for (const auto& s : streams_)
      if (!s->closed && s->filter.bucket == bucket)
        s->send(line + "\n");
  });
}

void listen_hub::drop_all() {
  asio::post(context_, [this] {
    for (const auto& s : streams_) {
      s->closed = true;
      boost::system::error_code ignored;
      s->stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
      s->stream.socket().close(ignored);
    }
    streams_.clear();
    count_ = 0;
  });
}

} // namespace ganglion::test::s3
