#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Azure Storage's Shared Key authorization (the `SharedKey` scheme, service version 2009-09-19
// and later), as the azqueue SDK Argo uses signs a request.

namespace ganglion::azure::detail {

/// Name and value pairs, in order.
using header_list = std::vector<std::pair<std::string, std::string>>;

/// The string to sign: the method; Content-Encoding, Content-Language, Content-Length (empty
/// for 0), Content-MD5, Content-Type; an empty Date (x-ms-date is signed instead);
/// If-Modified-Since, If-Match, If-None-Match, If-Unmodified-Since, Range (each the first value
/// of `headers`, names case-insensitive, empty when absent); the `x-ms-*` headers lower-cased,
/// sorted, `name:value` joined by `\n`; and the canonicalized resource `/<account><path>` with
/// each query parameter, sorted by name, as `\n<name lower-cased>:<values sorted, joined by
/// ','>`. `path` is the URL's path as sent (escaped), `query` the parameters unescaped.
std::string shared_key_string_to_sign(std::string_view method, const header_list& headers,
                                      std::string_view account, std::string_view path,
                                      const header_list& query);

/// `SharedKey <account>:<base64(HMAC-SHA256(key, string_to_sign))>`; `key` is the account key's
/// bytes (AccountKey base64-decoded).
std::string shared_key_authorization(std::string_view account, std::string_view key,
                                     std::string_view string_to_sign);

} // namespace ganglion::azure::detail
