#pragma once

// The MIME encodings of an email as Go's mime package and gomail write them (Argo's email
// trigger sends through gomail).

#include <string>
#include <string_view>

namespace ganglion::email::detail {

/// Go's `mime.QEncoding.Encode("UTF-8", value)`: `value` as it is when every byte is printable
/// ASCII, space or tab; otherwise RFC 2047 encoded words (`=?UTF-8?q?…?=`, at most 75
/// characters each, split between UTF-8 sequences, separated by a space). CR and LF are
/// encoded, so a header value never breaks its line.
std::string q_encode(std::string_view value);

/// gomail's header line `name: value\r\n`, folded before 76 characters at a space.
std::string header_line(std::string_view name, std::string_view value);

/// Go's `mime/quotedprintable.Writer` (text mode): lines end in CRLF, `=` and bytes outside
/// printable ASCII become `=XX`, a space or tab at a line's end is encoded, and lines are
/// broken with a soft `=` before 76 characters.
std::string quoted_printable(std::string_view text);

} // namespace ganglion::email::detail
