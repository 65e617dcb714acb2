// sprig's encodings: base64 (Go's StdEncoding), SHA-256 and JSON.

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "ganglion/dsl/go/codec.hpp"
#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

using args_t = std::vector<value>;

value fn_b64enc(const call_context&, args_t& a) {
  return base64_encode(arg_string(a[0], "b64enc"));
}

// sprig returns Go's decode error text in place of the decoded string.
value fn_b64dec(const call_context&, args_t& a) {
  auto decoded = base64_decode(arg_string(a[0], "b64dec"));
  if (decoded.illegal_at)
    return fmt::format("illegal base64 data at input byte {}", *decoded.illegal_at);
  return std::move(decoded.bytes);
}

value fn_sha256sum(const call_context&, args_t& a) {
  return sha256_hex(arg_string(a[0], "sha256sum"));
}

template <bool EscapeHtml>
value fn_to_json(const call_context&, args_t& a) {
  try {
    return to_go_json(a[0], EscapeHtml);
  } catch (const std::runtime_error&) {
    return "";
  }
}

value fn_from_json(const call_context&, args_t& a) {
  value parsed = value::parse(arg_string(a[0], "fromJson"), nullptr, false);
  if (parsed.is_discarded())
    return nullptr;
  return numbers_to_float(std::move(parsed));
}

} // namespace

void add_encoding_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"b64enc", fn_b64enc, 1, 1},
                          {"b64dec", fn_b64dec, 1, 1},
                          {"sha256sum", fn_sha256sum, 1, 1},
                          {"toJson", fn_to_json<true>, 1, 1},
                          {"toRawJson", fn_to_json<false>, 1, 1},
                          {"fromJson", fn_from_json, 1, 1},
                        });
}

} // namespace ganglion::dsl::tmpl
