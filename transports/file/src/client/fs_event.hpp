#pragma once

// Private: one change a directory watcher saw, and Go's names for its operations.

#include <cstdint>
#include <string>
#include <string_view>

namespace ganglion::file {

/// Operation bits, as Go's fsnotify.Op and Argo's fsevent.Op number them.
enum op_bit : std::uint32_t {
  op_create = 1,
  op_write = 2,
  op_remove = 4,
  op_rename = 8,
  op_chmod = 16,
};

/// A change: the name the watcher gives the entry (inotify: `<directory>/<entry>`; the stat
/// poller and sftp: the entry's base name) and its operation bits.
struct fs_event {
  std::string name;
  std::uint32_t op = 0;
};

/// Op.String() of fsnotify and fsevent: `CREATE`, `REMOVE|WRITE` … (that order), "" for none.
std::string op_string(std::uint32_t op);

/// fsevent.NewOp: the bits of a `|`-separated list of names; unknown names count nothing.
std::uint32_t op_bits(std::string_view names);

/// Go's filepath.Clean (lexical: `.` and `..` resolved, repeated and trailing slashes dropped).
std::string go_clean(std::string_view path);

} // namespace ganglion::file
