#pragma once

// Beast parsers that keep only what the load generator needs, so reading a message allocates
// nothing: header fields are looked at by Beast (keep-alive, length) and then dropped.

#include <string>

#include <boost/beast/http/basic_parser.hpp>

namespace ganglion::loadgen {

namespace beast_http = boost::beast::http;
using beast_error = boost::beast::error_code;
using beast_string_view = boost::beast::string_view;

/// Parses one HTTP response, keeping its status code; the body is discarded.
class status_only_parser final : public beast_http::basic_parser<false> {
public:
  /// The status code (0 before the status line was read).
  int status() const noexcept { return status_; }

private:
  void on_request_impl(beast_http::verb, beast_string_view, beast_string_view, int,
                       beast_error&) override {}
  void on_response_impl(int code, beast_string_view, int, beast_error&) override {
    status_ = code;
  }
  void on_field_impl(beast_http::field, beast_string_view, beast_string_view,
                     beast_error&) override {}
  void on_header_impl(beast_error&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>&, beast_error&) override {}
  std::size_t on_body_impl(beast_string_view body, beast_error&) override { return body.size(); }
  void on_chunk_header_impl(std::uint64_t, beast_string_view, beast_error&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, beast_string_view body, beast_error&) override {
    return body.size();
  }
  void on_finish_impl(beast_error&) override {}

  int status_ = 0;
};

/// Parses one HTTP request, appending its body to a string the caller owns and reuses.
class body_only_parser final : public beast_http::basic_parser<true> {
public:
  /// Appends the body to `*body`, which must outlive the parser.
  explicit body_only_parser(std::string* body) : body_(body) {}

private:
  void on_request_impl(beast_http::verb, beast_string_view, beast_string_view, int,
                       beast_error&) override {}
  void on_response_impl(int, beast_string_view, int, beast_error&) override {}
  void on_field_impl(beast_http::field, beast_string_view, beast_string_view,
                     beast_error&) override {}
  void on_header_impl(beast_error&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>&, beast_error&) override {}
  std::size_t on_body_impl(beast_string_view body, beast_error&) override {
    body_->append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, beast_string_view, beast_error&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, beast_string_view body, beast_error&) override {
    body_->append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(beast_error&) override {}

  std::string* body_;
};

} // namespace ganglion::loadgen
