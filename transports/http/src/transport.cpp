#include "ganglion/http/transport.hpp"

#include "ganglion/http/http_trigger.hpp"
#include "ganglion/http/webhook.hpp"

namespace ganglion::http {

runtime::runtime(runtime_options options)
  : servers(std::make_shared<server_pool>(options.server)),
    requests(std::make_shared<http::client>(options.client)),
    bind_host(std::move(options.bind_host)),
    listen(std::move(options.listen)) {}

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        std::shared_ptr<runtime> rt) {
  sources["webhook"] = make_webhook_source_factory(rt->servers, rt->bind_host, rt->listen);
  triggers["http"] = make_http_trigger_factory(rt->requests);
}

} // namespace ganglion::http
