#pragma once

// Private: NATS nkeys (Ed25519 keys encoded as base32 with a type prefix and a CRC16).

#include <string>
#include <string_view>

namespace ganglion::nats {

/// The seed in `text`: the text itself (trimmed), or the `SU…` line of a decorated file such
/// as a `.creds` file. Throws std::runtime_error when there is none.
std::string find_nkey_seed(std::string_view text);

/// The public key (`U…` for a user) of an encoded seed (`SU…`). Throws std::runtime_error for
/// a seed that is malformed (bad base32, bad checksum, not a seed).
std::string nkey_public_key(std::string_view seed);

} // namespace ganglion::nats
