#pragma once

// Private: Argo's sftp diffFiles: what changed between two listings of a directory.

#include <vector>

#include "client/sftp_client.hpp"

namespace ganglion::file {

/// The entries gone (REMOVE) and the entries new or changed in size or modification time
/// (CREATE), in Argo's order: removed as listed before; changed as listed before, then new as
/// listed now.
struct listing_diff {
  std::vector<remote_file> removed;
  std::vector<remote_file> created;
};

/// diffFiles(before, now).
listing_diff diff_listings(const std::vector<remote_file>& before,
                           const std::vector<remote_file>& now);

} // namespace ganglion::file
