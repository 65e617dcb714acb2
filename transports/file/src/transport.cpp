#include "ganglion/file/transport.hpp"

namespace ganglion::file {

void register_transport(core::source_registry& sources, options opts) {
  sources["file"] = make_source_factory(opts);
  sources["sftp"] = make_sftp_source_factory(opts);
}

} // namespace ganglion::file
