#pragma once

// The file transport's models: `spec.file.<event>` and `spec.sftp.<event>` of an EventSource,
// as their spec steps read them.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::file {

/// `watchPathConfig`: the directory watched and the entries in it that count.
struct watch_path_config {
  std::string directory;   ///< absolute
  std::string path;        ///< a name relative to `directory`, or
  std::string path_regexp; ///< an RE2 pattern found anywhere in the relative name
};

/// The user's `metadata`: absent (Argo writes `null` into the event) or a map (`{}` when empty).
using metadata_map = std::optional<std::map<std::string, std::string>>;

/// `spec.file.<event>`: file system notifications of one directory.
struct event_spec {
  std::string event_type; ///< CREATE, WRITE, REMOVE, RENAME or CHMOD (Go fsnotify's Op names)
  watch_path_config watch_path;
  bool polling = false; ///< a stat poller every 100 ms instead of inotify
  metadata_map metadata;
};

/// `spec.sftp.<event>`: a directory on an SFTP server, listed every poll interval.
struct sftp_event_spec {
  std::string event_type; ///< CREATE or REMOVE (what a listing diff yields)
  watch_path_config watch_path;
  std::optional<dsl::secret_key_selector> username;
  std::optional<dsl::secret_key_selector> password;
  /// A private key, and the server's public host key as an authorized_keys line.
  std::optional<dsl::secret_key_selector> ssh_key_secret;
  std::optional<dsl::secret_key_selector> address; ///< host:port
  metadata_map metadata;
  std::string poll_interval_duration; ///< a Go duration; empty: 10s
};

/// The spec step of the file source (reads and checks `spec.file.<event>` into event_spec).
dsl::kind_spec source_spec_step();

/// The spec step of the sftp source (reads and checks `spec.sftp.<event>` into
/// sftp_event_spec).
dsl::kind_spec sftp_spec_step();

} // namespace ganglion::file
