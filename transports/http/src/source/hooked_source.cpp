#include "ganglion/http/hooked_source.hpp"

namespace ganglion::http {

namespace {

class hooked_source final : public core::source {
public:
  hooked_source(std::unique_ptr<core::source> route, std::shared_ptr<provider_hooks> hooks,
                bool delete_on_finish)
    : route_(std::move(route)), hooks_(std::move(hooks)), delete_on_finish_(delete_on_finish) {}

  void keep(const core::source_context& ctx, registrar_options options) {
    registrar_ = std::make_unique<hook_registrar>(
      [hooks = hooks_] { return hooks->apply(); },
      [fail = ctx.fail, give_up = ctx.give_up](const registration_failure& f) {
        if (f.permanent && give_up)
          give_up(f.reason);
        else if (fail)
          fail(f.reason);
      },
      options);
  }

  ~hooked_source() override {
    if (registrar_)
      registrar_->stop();
    route_.reset();
    if (hooks_ && delete_on_finish_)
      hooks_->remove();
  }

private:
  std::unique_ptr<core::source> route_;
  std::shared_ptr<provider_hooks> hooks_;
  bool delete_on_finish_;
  std::unique_ptr<hook_registrar> registrar_;
};

} // namespace

std::unique_ptr<core::source> start_hooked_source(const runtime& rt,
                                                  const core::source_context& ctx, push_route route,
                                                  std::shared_ptr<provider_hooks> hooks,
                                                  registrar_options options,
                                                  bool delete_on_finish) {
  auto served = start_push_source(rt, ctx, std::move(route));
  auto source = std::make_unique<hooked_source>(std::move(served), hooks, delete_on_finish);
  if (hooks)
    source->keep(ctx, options);
  return source;
}

} // namespace ganglion::http
