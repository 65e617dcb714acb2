#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"

namespace ganglion::file {

/// Settings of the file transport (the same for every source).
struct options {
  /// How often `polling: true` lists the directory (Argo: watcher.Start(100ms)).
  std::chrono::milliseconds polling_interval{100};
  /// The sftp poll interval when `pollIntervalDuration` is empty (Argo's default, 10 s).
  std::chrono::milliseconds sftp_poll_interval{10000};
  /// How long one SSH connect, handshake and authentication may take.
  std::chrono::milliseconds sftp_connect_timeout{5000};
  /// Connection attempts before an sftp source fails (Argo's DoWithRetry(nil): 5, 1 s ×1.0).
  int sftp_connect_attempts = 5;
  /// The wait between two connection attempts.
  std::chrono::milliseconds sftp_connect_wait{1000};
};

/// The `file` source: watches `watchPathConfig.directory` with inotify (or `polling: true`: a
/// stat poller) and publishes each change whose name matches `path` or `pathRegexp` and whose
/// operation is `eventType` as a CloudEvent of type `file` with Argo's data
/// `{"name":…,"op":<number>,"metadata":…}`. A directory that cannot be watched yet keeps the
/// source Pending (saying why) while it tries again with backoff; a directory that goes away
/// later fails the source (ctx.fail).
core::source_factory make_source_factory(options opts = {});

/// The file source's check step (also run when a source starts): eventType and
/// watchPathConfig as Argo validates them. Touches no file.
std::vector<std::string> check_source(const core::source_context& ctx);

/// The `sftp` source: lists `watchPathConfig.directory` on an SFTP server (libssh) every
/// `pollIntervalDuration` and publishes CREATE (a new entry, or one whose size or
/// modification time changed) and REMOVE (an entry gone) as Argo's sftp source does, as a
/// CloudEvent of type `sftp`. Logs in with `username` and `password` or `sshKeySecret`.
core::source_factory make_sftp_source_factory(options opts = {});

/// The sftp source's check step: Argo's rules, and the credentials StartListening needs.
/// Reads no secret, connects to nothing.
std::vector<std::string> check_sftp_source(const core::source_context& ctx);

/// Registers the `file` and `sftp` sources.
void register_transport(core::source_registry& sources, options opts = {});

} // namespace ganglion::file
