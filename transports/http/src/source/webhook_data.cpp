#include "ganglion/http/internal/webhook_data.hpp"

#include <cctype>
#include <vector>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::http::detail {

namespace {

using string_lists = query_values;

bool is_token_byte(unsigned char c) {
  static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
  return std::isalnum(c) || extra.find(static_cast<char>(c)) != std::string_view::npos;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Go's url.QueryUnescape; nullopt on a bad `%` escape.
std::optional<std::string> query_unescape_impl(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      if (i + 2 >= in.size())
        return std::nullopt;
      int hi = hex_value(in[i + 1]);
      int lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0)
        return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string to_json(const string_lists& values) {
  std::string out;
  dsl::append_go_json_object(out, values);
  return out;
}

} // namespace

std::optional<std::string> query_unescape(std::string_view in) {
  return query_unescape_impl(in);
}

std::string canonical_header_key(std::string_view name) {
  for (unsigned char c : name)
    if (!is_token_byte(c))
      return std::string(name);
  std::string out(name);
  bool upper = true;
  for (char& c : out) {
    if (upper && c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
    else if (!upper && c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    upper = c == '-';
  }
  return out;
}

std::string query_to_json(std::string_view query) {
  return to_json(parse_query(query));
}

std::string headers_to_json(const header_list& headers, bool mask_authorization) {
  string_lists values;
  for (const auto& [name, value] : headers) {
    auto key = canonical_header_key(name);
    if (key == "Host" || key == "Transfer-Encoding")
      continue;
    if (mask_authorization && key == "Authorization")
      values[key].push_back("*** Masked Auth Secret ***");
    else
      values[key].push_back(value);
  }
  return to_json(values);
}

std::optional<std::string> validate_json(const std::string& body, std::string& error) {
  std::string out;
  if (!dsl::append_go_json_raw(out, body, error))
    return std::nullopt;
  return out;
}

bool is_form_content_type(std::string_view content_type) {
  auto media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back())))
    media.remove_suffix(1);
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.front())))
    media.remove_prefix(1);
  static constexpr std::string_view form = "application/x-www-form-urlencoded";
  if (media.size() != form.size())
    return false;
  for (std::size_t i = 0; i < form.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(media[i])) != form[i])
      return false;
  return true;
}

std::string webhook_event_data(const std::string& header_json, const std::string& body_json,
                               const std::map<std::string, std::string>& metadata) {
  std::string out;
  out.reserve(header_json.size() + body_json.size() + 64);
  out += R"({"header":)";
  out += header_json;
  out += R"(,"body":)";
  out += body_json;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::http::detail

namespace ganglion::http {

query_values parse_query(std::string_view query) {
  query_values values;
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty() || pair.find(';') != std::string_view::npos)
      continue;
    auto eq = pair.find('=');
    auto key = detail::query_unescape(pair.substr(0, eq));
    auto value = eq == std::string_view::npos ? std::optional<std::string>{""}
                                              : detail::query_unescape(pair.substr(eq + 1));
    if (!key || !value)
      continue;
    values[*key].push_back(std::move(*value));
  }
  return values;
}

} // namespace ganglion::http
