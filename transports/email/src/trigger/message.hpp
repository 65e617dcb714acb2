#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::email::detail {

/// What one execution sends: the EmailTrigger's fields after parameters.
struct email_fields {
  std::string host;
  std::int64_t port = 0;
  std::string username;
  std::vector<std::string> to;
  std::string from;
  std::string subject;
  std::string body;
};

/// The fields of `template.email` given as JSON text (the core's `resource_json`). Throws
/// std::runtime_error when the text is not an object or a field has the wrong type.
email_fields read_fields(const std::string& email_json);

/// Argo's checks before sending, in its order: "to can't be empty", "body can't be empty",
/// "subject can't be empty"; then ganglion's size limits and a `from` that must be an address.
/// Throws std::runtime_error with the first problem.
void check_fields(const email_fields& fields);

/// Argo's recipient check, `^[\w-\.]+@([\w-]+\.)+[\w-]{2,4}$` (Go's \w: ASCII letters, digits
/// and `_`).
bool valid_recipient(std::string_view address);

/// The address of a From value, `a@b.c` or `Name <a@b.c>` (the SMTP envelope sender). Throws
/// std::runtime_error for an empty value, a control character or a malformed one.
std::string sender_address(std::string_view from);

/// The message gomail writes for Argo: Mime-Version, Date (`date`, RFC 1123 with a numeric
/// zone), From, To, Subject (RFC 2047 when not plain ASCII), Content-Type text/plain UTF-8, the
/// body quoted-printable; lines end in CRLF.
std::string build_message(const email_fields& fields, std::string_view to, std::string_view date);

/// The current time as Go's time.RFC1123Z in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`.
std::string rfc1123z_now();

} // namespace ganglion::email::detail
