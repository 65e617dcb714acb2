#pragma once

// Go standard-library behaviours the Argo semantics depend on (strconv, encoding/json string
// escaping) and tidwall/match wildcards, reproduced exactly.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::dsl::go {

/// strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False; nullopt otherwise.
std::optional<bool> parse_bool(std::string_view text);

/// The result of strconv.ParseFloat: the value Go returns and whether err == nil.
struct parsed_float {
  double value = 0;
  bool ok = false;
};

/// strconv.ParseFloat(text, 64): Go's float literals, decimal and hex (`0x1p3` is 8), with
/// `_` between digits (`1_000.5`), and inf/infinity/nan; ±Inf with ok = false on overflow,
/// like Go. The one ParseFloat of ganglion: validate and the filters both use it.
parsed_float parse_float(std::string_view text);

/// strconv.ParseInt(text, 0, 64): an optional sign, then `0x`/`0X` hex, `0o`/`0O` or a
/// leading `0` octal, `0b`/`0B` binary, else decimal, with `_` between digits; nullopt on a
/// syntax error or when the value does not fit in 64 bits.
std::optional<std::int64_t> parse_int(std::string_view text);

/// strconv.FormatFloat(value, 'f', -1, 64): the shortest round-tripping fixed notation.
std::string format_float(double value);

/// Appends `text` as a JSON string the way encoding/json (and gjson.AppendJSONString) does:
/// `<`, `>`, `&`, U+2028 and U+2029 escaped, invalid UTF-8 as `\ufffd`.
void append_json_string(std::string& out, std::string_view text);

/// sjson's appendStringify: plain quotes unless the text needs escaping (control bytes,
/// non-ASCII, `"`, `\`), then append_json_string.
void append_sjson_string(std::string& out, std::string_view text);

/// tidwall/match: `*` matches any run of characters, `?` one UTF-8 character, `\c` is `c`.
bool wildcard_match(std::string_view text, std::string_view pattern);

/// gjson's unescape of the inside of a JSON string (stops at the first invalid escape).
std::string json_unescape(std::string_view text);

} // namespace ganglion::dsl::go
