#pragma once

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/file/spec.hpp"

// The file transport's readers (YAML → model) and rules (Argo's file and sftp validate.go,
// WatchPathConfig.Validate, plus ganglion's).

namespace ganglion::file::detail {

/// Reads `spec.file.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Reads `spec.sftp.<event>`.
sftp_event_spec read_sftp_event(const dsl::spec_read_input& in);

/// Argo's rules for `spec.file.<event>`, and warnings where Argo would never fire.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for `spec.sftp.<event>`, and what StartListening would refuse.
void check_sftp_event(const sftp_event_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::file::detail
