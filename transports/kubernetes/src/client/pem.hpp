#pragma once

#include <string>
#include <string_view>

namespace ganglion::kubernetes::detail {

/// What a PEM text must hold.
enum class pem_kind { certificates, private_key };

/// Empty when `pem` holds what `kind` says (one or more certificates; an unencrypted private
/// key), else why not, e.g. `not a PEM certificate`.
std::string pem_problem(std::string_view pem, pem_kind kind);

} // namespace ganglion::kubernetes::detail
