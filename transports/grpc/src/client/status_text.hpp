#pragma once

// Private: a gRPC status as a log line or an error message.

#include <string>

#include <grpcpp/support/status.h>

namespace ganglion::grpc::detail {

/// `UNAVAILABLE: failed to connect to all addresses` (the code's name, then the message).
std::string describe_status(const ::grpc::Status& status);

} // namespace ganglion::grpc::detail
