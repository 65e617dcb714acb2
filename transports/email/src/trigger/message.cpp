#include "trigger/message.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trigger/mime.hpp"

namespace ganglion::email::detail {

namespace {

constexpr std::size_t max_body = std::size_t{10} << 20;
constexpr std::size_t max_header = 4096;
constexpr std::size_t max_recipients = 100;

std::string string_field(const nlohmann::json& object, const char* key) {
  auto i = object.find(key);
  if (i == object.end() || i->is_null())
    return {};
  if (!i->is_string())
    throw std::runtime_error(fmt::format("email.{} must be a string, not {}", key, i->dump()));
  return i->get<std::string>();
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool all_of(std::string_view s, bool (*ok)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ok);
}

} // namespace

email_fields read_fields(const std::string& email_json) {
  auto spec = nlohmann::json::parse(email_json, nullptr, false);
  if (!spec.is_object())
    throw std::runtime_error("the email trigger spec is not a JSON object");
  email_fields out;
  out.host = string_field(spec, "host");
  out.username = string_field(spec, "username");
  out.from = string_field(spec, "from");
  out.subject = string_field(spec, "subject");
  out.body = string_field(spec, "body");
  if (auto i = spec.find("port"); i != spec.end() && !i->is_null()) {
    if (!i->is_number_integer())
      throw std::runtime_error(fmt::format("email.port must be an integer, not {}", i->dump()));
    out.port = i->get<std::int64_t>();
  }
  if (auto i = spec.find("to"); i != spec.end() && !i->is_null()) {
    if (!i->is_array())
      throw std::runtime_error(fmt::format("email.to must be a list, not {}", i->dump()));
    for (const auto& item : *i) {
      if (!item.is_string())
        throw std::runtime_error(fmt::format("email.to holds {}, not a string", item.dump()));
      out.to.push_back(item.get<std::string>());
    }
  }
  return out;
}

void check_fields(const email_fields& f) {
  if (f.to.empty())
    throw std::runtime_error("to can't be empty");
  if (f.body.empty())
    throw std::runtime_error("body can't be empty");
  if (f.subject.empty())
    throw std::runtime_error("subject can't be empty");
  if (f.host.empty())
    throw std::runtime_error("host can't be empty");
  if (f.port < 1 || f.port > 65535)
    throw std::runtime_error(fmt::format("port {} is not an SMTP server's port", f.port));
  if (f.to.size() > max_recipients)
    throw std::runtime_error(
      fmt::format("{} recipients; ganglion sends to {} at most", f.to.size(), max_recipients));
  if (f.body.size() > max_body)
    throw std::runtime_error(
      fmt::format("body of {} bytes; ganglion sends {} at most", f.body.size(), max_body));
  if (f.subject.size() > max_header || f.from.size() > max_header)
    throw std::runtime_error(fmt::format("subject and from are limited to {} bytes", max_header));
  sender_address(f.from);
}

bool valid_recipient(std::string_view address) {
  auto at = address.find('@');
  if (at == std::string_view::npos)
    return false;
  auto local = address.substr(0, at);
  if (!all_of(local, [](char c) { return word_char(c) || c == '-' || c == '.'; }))
    return false;
  auto domain = address.substr(at + 1);
  auto last_dot = domain.rfind('.');
  if (last_dot == std::string_view::npos)
    return false;
  auto top = domain.substr(last_dot + 1);
  if (top.size() < 2 || top.size() > 4
      || !all_of(top, [](char c) { return word_char(c) || c == '-'; }))
    return false;
  auto labels = domain.substr(0, last_dot);
  for (std::size_t start = 0;;) {
    auto dot = labels.find('.', start);
    auto label = labels.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!all_of(label, [](char c) { return word_char(c) || c == '-'; }))
      return false;
    if (dot == std::string_view::npos)
      return true;
    start = dot + 1;
  }
}

std::string sender_address(std::string_view from) {
  for (unsigned char c : from)
    if (c < ' ' || c == 0x7f)
      throw std::runtime_error("from holds a control character");
  auto address = from;
  if (auto open = from.rfind('<'); open != std::string_view::npos) {
    auto close = from.find('>', open);
    if (close == std::string_view::npos || close + 1 != from.size())
      throw std::runtime_error(fmt::format("invalid from address \"{}\"", from));
    address = from.substr(open + 1, close - open - 1);
  }
  auto at = address.find('@');
  if (address.empty() || at == 0 || at == std::string_view::npos || at + 1 == address.size()
      || address.find_first_of(" <>\"") != std::string_view::npos)
    throw std::runtime_error(fmt::format("invalid from address \"{}\"", from));
  return std::string{address};
}

std::string build_message(const email_fields& f, std::string_view to, std::string_view date) {
  std::string out = "Mime-Version: 1.0\r\n";
  out += header_line("Date", date);
  out += header_line("From", q_encode(f.from));
  out += header_line("To", to);
  out += header_line("Subject", q_encode(f.subject));
  out += "Content-Type: text/plain; charset=UTF-8\r\n";
  out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
  out += quoted_printable(f.body);
  return out;
}

std::string rfc1123z_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[64];
  auto n = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S +0000", &utc);
  return std::string(text, n);
}

} // namespace ganglion::email::detail
