#include "ganglion/storagegrid/transport.hpp"

namespace ganglion::storagegrid {

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["storageGrid"] = make_source_factory(std::move(rt), opts);
}

} // namespace ganglion::storagegrid
