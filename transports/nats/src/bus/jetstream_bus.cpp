// The JetStream bus: events go to the stream through asynchronous publishes, each sensor reads
// them through durable pull consumers of its own, condition state lives in a KV bucket and
// ownership in another (see docs/buses.md).

#include "ganglion/nats/jetstream_bus.hpp"

#include <unistd.h>

#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/connection.hpp"
#include "ganglion/core/event_codec.hpp"
#include "bus/jetstream_ownership.hpp"
#include "bus/jetstream_state.hpp"
#include "bus/jetstream_stream.hpp"
#include "bus/jetstream_subscription.hpp"

namespace ganglion::nats {

namespace {

std::string default_replica_id() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::random_device random;
  return fmt::format("{}-{}-{:04x}", host, ::getpid(), random() & 0xffff);
}

class jetstream_bus final : public core::remote_bus {
public:
  jetstream_bus(const bus_spec& spec, std::shared_ptr<const core::secret_store> secrets,
                jetstream_options options)
    : options_(std::move(options)), stream_(spec.stream_name) {
    if (options_.replica_id.empty())
      options_.replica_id = default_replica_id();
    connection_settings settings;
    settings.url = spec.url.empty() ? options_.default_url : spec.url;
    settings.name = "ganglion-bus-" + options_.replica_id;
    settings.retry_on_failed_connect = false;
    settings.auth = access_credentials(spec, secrets.get());
    if (spec.tls)
      settings.tls = resolve_tls(*spec.tls, secrets.get(), "spec.jetstreamExotic.tls");
    url_ = redact_url(settings.url);
    connection_ = connect(std::move(settings));
    jsOptions js_options;
    jsOptions_Init(&js_options);
    js_options.PublishAsync.MaxPending = options_.max_pending_publishes;
    js_options.PublishAsync.AckHandler = &jetstream_bus::on_ack;
    js_options.PublishAsync.AckHandlerClosure = this;
    js_options.PublishAsync.StallWait = 20;
    js_options.Wait = 5000;
    if (auto s = natsConnection_JetStream(&js_, connection_->get(), &js_options); s != NATS_OK)
      throw std::runtime_error("JetStream is not available at " + url_ + ": " + status_text(s));
    ensure_stream(js_, spec);
    state_ = std::make_unique<jetstream_state>(connection_->get(), js_, options_.state_bucket,
                                               static_cast<int>(spec.stream.replicas));
    ownership_settings owners;
    owners.bucket = options_.owners_bucket;
    owners.shards = options_.shards;
    owners.lease_ttl = options_.lease_ttl;
    owners.tick = options_.lease_tick;
    owners.replica_id = options_.replica_id;
    owners_ = std::make_unique<jetstream_ownership>(connection_->get(), owners);
    consumers_.stream = stream_;
    consumers_.ack_wait_ns = options_.ack_wait.count() * 1'000'000;
    consumers_.max_ack_pending = options_.max_ack_pending;
    consumers_.fetch_batch = options_.fetch_batch;
    spdlog::info("JetStream bus at {}: stream {} (subjects {}.*.*), replica {}", url_, stream_,
                 stream_, options_.replica_id);
  }

  ~jetstream_bus() override {
    close(std::chrono::milliseconds(0));
    owners_.reset();
    state_.reset();
    jsCtx_Destroy(js_);
    connection_.reset();
    std::lock_guard guard{mutex_};
    for (auto& [msg, done] : in_flight_) {
      done(core::publish_status::failed, "the bus closed before JetStream acknowledged");
      natsMsg_Destroy(msg);
    }
  }

  std::string kind() const override { return "jetstream"; }

  void publish(core::event&& e, core::publish_done done) override {
    if (closed_.load()) {
      done(core::publish_status::stopped, {});
      return;
    }
    std::string payload;
    payload.reserve(core::encoded_size(e));
    core::encode_event(e, payload);
    auto subject = fmt::format("{}.{}.{}", stream_, e.source, e.subject);
    natsMsg* msg = nullptr;
    if (auto s = natsMsg_Create(&msg, subject.c_str(), nullptr, payload.data(),
                                static_cast<int>(payload.size()));
        s != NATS_OK) {
      done(core::publish_status::failed, status_text(s));
      return;
    }
    natsMsgHeader_Set(msg, "Nats-Msg-Id", e.id.c_str());
    {
      std::lock_guard guard{mutex_};
      in_flight_.emplace(msg, std::move(done));
    }
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = options_.publish_timeout.count();
    natsMsg* owned = msg;
    auto s = js_PublishMsgAsync(js_, &owned, &options);
    if (s == NATS_OK)
      return;
    core::publish_done failed;
    {
      std::lock_guard guard{mutex_};
      auto it = in_flight_.find(msg);
      if (it == in_flight_.end())
        return; // the ack handler already reported it
      failed = std::move(it->second);
      in_flight_.erase(it);
    }
    natsMsg_Destroy(owned);
    if (s == NATS_TIMEOUT)
      failed(core::publish_status::saturated, {});
    else
      failed(core::publish_status::failed, "JetStream publish: " + status_text(s));
  }

  std::unique_ptr<core::remote_subscription> subscribe(
    const std::string& sensor, const std::vector<std::pair<std::string, std::string>>& sources,
    core::delivery_handler handler) override {
    return std::make_unique<jetstream_subscription>(js_, consumers_, sensor, sources,
                                                    std::move(handler));
  }

  void prepare(const std::string& sensor,
               const std::vector<std::pair<std::string, std::string>>& sources) override {
    ensure_consumers(js_, consumers_, sensor, sources);
  }

  void forget(const std::string& sensor) override {
    jsConsumerNamesList* names = nullptr;
    jsErrCode code = static_cast<jsErrCode>(0);
    if (auto s = js_ConsumerNames(&names, js_, stream_.c_str(), nullptr, &code); s != NATS_OK)
      throw std::runtime_error("cannot list the stream's consumers: " + status_text(s));
    auto prefix = consumer_prefix(sensor);
    for (int i = 0; i < names->Count; ++i) {
      std::string name = names->List[i];
      if (name.size() == prefix.size() + 16 && name.starts_with(prefix))
        js_DeleteConsumer(js_, stream_.c_str(), name.c_str(), nullptr, &code);
    }
    jsConsumerNamesList_Destroy(names);
  }

  core::state_store& state() override { return *state_; }
  core::ownership& owners() override { return *owners_; }

  void close(std::chrono::milliseconds grace) override {
    if (closed_.exchange(true))
      return;
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = std::max<std::int64_t>(1, grace.count());
    js_PublishAsyncComplete(js_, &options);
    state_->flush(grace);
  }

private:
  static void on_ack(jsCtx*, natsMsg* msg, jsPubAck* ack, jsPubAckErr* error, void* closure) {
    auto* self = static_cast<jetstream_bus*>(closure);
    core::publish_done done;
    {
      std::lock_guard guard{self->mutex_};
      auto it = self->in_flight_.find(msg);
      if (it != self->in_flight_.end()) {
        done = std::move(it->second);
        self->in_flight_.erase(it);
      }
    }
    if (done) {
      if (ack)
        done(core::publish_status::accepted, {});
      else
        done(core::publish_status::failed,
             "JetStream did not store the event: "
               + (error && error->ErrText ? std::string{error->ErrText}
                                          : status_text(error ? error->Err : NATS_ERR)));
    }
    natsMsg_Destroy(msg);
  }

  static credentials access_credentials(const bus_spec& spec,
                                        const core::secret_store* secrets);

  jetstream_options options_;
  std::string stream_;
  std::string url_;
  std::unique_ptr<connection> connection_;
  jsCtx* js_ = nullptr;
  consumer_settings consumers_;
  std::unique_ptr<jetstream_state> state_;
  std::unique_ptr<jetstream_ownership> owners_;
  std::atomic<bool> closed_{false};
  std::mutex mutex_;
  std::unordered_map<natsMsg*, core::publish_done> in_flight_;
};

credentials jetstream_bus::access_credentials(const bus_spec& spec,
                                              const core::secret_store* secrets) {
  credentials out;
  if (!spec.access_secret)
    return out;
  return parse_access_secret(*spec.access_secret, secrets);
}

} // namespace

std::shared_ptr<core::remote_bus> make_jetstream_bus(const bus_spec& spec,
                                                     std::shared_ptr<const core::secret_store> secrets,
                                                     jetstream_options options) {
  return std::make_shared<jetstream_bus>(spec, std::move(secrets), std::move(options));
}

} // namespace ganglion::nats
