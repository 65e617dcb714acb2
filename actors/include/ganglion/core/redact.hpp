#pragma once

// Keeps credentials written into URLs out of log lines, errors and the status board.

#include <string>
#include <string_view>

namespace ganglion::core {

/// Writes into `out` the text `text` with the userinfo of every URL in it replaced by `***`
/// (`nats://user:pass@host` → `nats://***@host`, `https://TOKEN@host` → `https://***@host`),
/// and the `user:password` of an scp-style address (`git:pass@host:org/repo`) likewise; a
/// user-only scp address (`git@github.com:org/repo`) stays. The userinfo ends at the last `@`
/// of the authority (so `p@ss` and `%40` are covered); IPv6 hosts and several URLs in one
/// text are handled. Returns false, and leaves `out` alone without allocating, when nothing
/// needed redacting (always so for a text without `@`).
bool redact_url_userinfo_into(std::string_view text, std::string& out);

/// `text` with every URL's userinfo replaced by `***` (see redact_url_userinfo_into).
std::string redact_url_userinfo(std::string_view text);

/// Redacts `text` in place (see redact_url_userinfo_into); false when it was left as is.
bool redact_url_userinfo_in_place(std::string& text);

} // namespace ganglion::core
