#pragma once

// Kubernetes `Status` failures, as the API server words them.

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// A request that fails with a `Status` body.
class api_error : public std::runtime_error {
public:
  /// A failure with `code`, `reason` and `message`; `details` may be null.
  api_error(int code, std::string reason, const std::string& message, json details = nullptr);

  int code() const noexcept { return code_; }
  const std::string& reason() const noexcept { return reason_; }
  /// `{"kind":"Status","apiVersion":"v1","status":"Failure",…}`.
  json status() const;

private:
  int code_;
  std::string reason_;
  json details_;
};

/// `pods` or `deployments.apps`: a resource as messages name it.
std::string qualified(const resource_type& type);

/// The reason Kubernetes gives a failure of HTTP status `code` without a more precise one.
std::string reason_of(int code);

/// `404 NotFound`: `pods "x" not found`.
api_error not_found(const resource_type& type, const std::string& name);
/// `409 AlreadyExists`: `pods "x" already exists`.
api_error already_exists(const resource_type& type, const std::string& name);
/// `409 Conflict`: `Operation cannot be fulfilled on pods "x": the object has been modified; …`.
api_error conflict(const resource_type& type, const std::string& name);
/// `422 Invalid`: `Pod "x" is invalid: <field>: <detail>`.
api_error invalid(const resource_type& type, const std::string& name, const std::string& field,
                  const std::string& cause_reason, const std::string& detail);
/// `400 BadRequest` with `message`.
api_error bad_request(const std::string& message);

} // namespace ganglion::test::kube
