#pragma once

// A secret a manifest field refers to, read from the secret store for a transport, with the
// failure named after the field: one wording for every kind, in each kind's own exception.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::core {

/// What try_read_secret hands back: the secret's value, or the path of a file holding it
/// (secret_store::file, for consumers that take a path).
enum class secret_form { value, file };

/// Secret `ref` from `secrets` as `form` says, or nullopt with `error` set to
/// `<field>: <why>` (`field`: the manifest path of the reference), why being that `secrets` is
/// null or what the store said.
std::optional<std::string> try_read_secret(const secret_store* secrets,
                                           const dsl::secret_key_selector& ref,
                                           std::string_view field, std::string* error,
                                           secret_form form = secret_form::value);

/// try_read_secret's secret, or throws `Error` (the kind's own exception, made from the message).
template <class Error>
std::string read_secret_or_throw(const secret_store* secrets, const dsl::secret_key_selector& ref,
                                 std::string_view field, secret_form form = secret_form::value) {
  std::string error;
  auto value = try_read_secret(secrets, ref, field, &error, form);
  if (!value)
    throw Error(error);
  return std::move(*value);
}

} // namespace ganglion::core
