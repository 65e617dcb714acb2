// The trigger kind a host registers to receive firings as messages (ganglion/core/embed.hpp).

#include <memory>
#include <string>

#include "ganglion/core/embed.hpp"

namespace ganglion::core {

namespace {

class actor_executor : public trigger_executor {
public:
  actor_executor(caf::actor listener, std::string sensor, std::string trigger)
    : listener_(std::move(listener)), sensor_(std::move(sensor)), trigger_(std::move(trigger)) {}

  void execute(const trigger_invocation& invocation, trigger_done done) override {
    caf::anon_send(listener_, firing_of(invocation));
    done(trigger_outcome{true, {}, "sent"});
  }

  std::string preview(const trigger_invocation& invocation) override {
    return "a sensor_firing message to the host's actor";
  }

private:
  sensor_firing firing_of(const trigger_invocation& invocation) const {
    sensor_firing out;
    out.sensor = sensor_;
    out.trigger = trigger_;
    for (const auto& [dependency, held] : invocation.events)
      if (held)
        out.events.emplace(dependency, *held);
    return out;
  }

  caf::actor listener_;
  std::string sensor_;
  std::string trigger_;
};

} // namespace

trigger_factory actor_trigger(const caf::actor& listener) {
  return [listener](const trigger_context& ctx) -> std::unique_ptr<trigger_executor> {
    if (ctx.manifest == nullptr)
      throw trigger_error("actor trigger started without its trigger");
    return std::make_unique<actor_executor>(listener, ctx.sensor_name,
                                            ctx.manifest->template_.name);
  };
}

} // namespace ganglion::core
