#include "source/consumer.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <random>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/retry_schedule.hpp"
#include "source/event_data.hpp"

namespace ganglion::amqp::detail {

namespace {

constexpr amqp_channel_t channel = 1;
/// The channel of the passive queue.declare that measures the lag: a failure there closes it,
/// not the channel the deliveries come on.
constexpr amqp_channel_t lag_channel = 2;
constexpr auto lag_every = std::chrono::seconds(1);

amqp_bytes_t bytes_of(const std::string& text) {
  return text.empty() ? amqp_empty_bytes
                      : amqp_bytes_t{text.size(), const_cast<char*>(text.data())};
}

bool settles_ok(core::publish_status status) {
  return status == core::publish_status::accepted || status == core::publish_status::filtered;
}

} // namespace

outcome_box::outcome_box() : event_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

outcome_box::~outcome_box() {
  if (event_fd >= 0)
    ::close(event_fd);
}

void outcome_box::push(outcome o) {
  {
    std::lock_guard guard{mutex};
    items.push_back(std::move(o));
  }
  wake();
}

std::vector<outcome> outcome_box::take() {
  std::lock_guard guard{mutex};
  return std::exchange(items, {});
}

void outcome_box::wake() const {
  std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(event_fd, &one, sizeof one);
}

void outcome_box::drain() const {
  std::uint64_t value = 0;
  [[maybe_unused]] auto n = ::read(event_fd, &value, sizeof value);
}

consumer::consumer(const core::source_context& ctx, const event_spec& spec,
                   connection_settings settings, const options& opts)
  : ctx_(ctx), spec_(spec), settings_(std::move(settings)), options_(opts),
    name_(fmt::format("amqp source {}/{}", ctx.event_source_name, ctx.event_name)),
    metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name),
    refused_delay_(opts.min_refused_delay) {
  ctx_.manifest = nullptr;
  ctx_.event = nullptr;
  settings_.name = name_;
  settings_.connect_timeout = opts.connect_timeout;
  metrics_.track_lag([lag = lag_] { return lag->load(); });
}

consumer::~consumer() {
  stopping_ = true;
  box_->wake();
  if (thread_.joinable())
    thread_.join();
}

void consumer::start() {
  thread_ = std::thread([this] { run(); });
}

void consumer::wait(int fd, std::chrono::milliseconds timeout) const {
  pollfd fds[2] = {{box_->event_fd, POLLIN, 0}, {fd, POLLIN, 0}};
  int n = ::poll(fds, fd >= 0 ? 2 : 1, static_cast<int>(timeout.count()));
  if (n > 0 && (fds[0].revents & POLLIN) != 0)
    box_->drain();
}

void consumer::run() {
  core::retry_schedule schedule{spec_.connection_backoff.value_or(dsl::backoff{})};
  std::mt19937 random{std::random_device{}()};
  std::uniform_real_distribution<double> unit{0.0, 1.0};
  std::uint32_t failures = 0;
  auto where = redact_url(settings_.url);
  while (!stopping_) {
    bool made = false;
    std::string error;
    try {
      session(made);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (stopping_)
      break;
    std::uint64_t held_back = 0;
    if (made) {
      failures = 0;
      spdlog::warn("{}: connection to {} lost: {}; reconnecting", name_, where, error);
    } else {
      ++failures;
      if (failures >= schedule.attempts()) {
        spdlog::error("{}: cannot connect to {} after {} attempts: {}", name_, where, failures,
                      error);
        if (ctx_.fail)
          ctx_.fail(fmt::format("{}: {}", name_, error));
        return;
      }
      if (connect_log_.allow(held_back))
        spdlog::warn("{}: cannot connect to {} (attempt {} of {}): {}{}", name_, where, failures,
                     schedule.attempts(), error, core::held_back_note(held_back, "attempts"));
    }
    auto delay = schedule.delay(failures == 0 ? 0 : failures - 1, unit(random));
    wait(-1, std::chrono::duration_cast<std::chrono::milliseconds>(delay));
  }
}

std::string consumer::declare(connection& conn) {
  auto* c = conn.get();
  const auto& e = spec_.exchange;
  amqp_exchange_declare(c, channel, bytes_of(spec_.exchange_name), bytes_of(spec_.exchange_type),
                        0, e.durable, e.auto_delete, e.internal, amqp_empty_table);
  conn.expect(amqp_get_rpc_reply(c),
              fmt::format("declaring the {} exchange '{}'", spec_.exchange_type,
                          spec_.exchange_name));
  std::string error;
  auto arguments = parse_queue_arguments(spec_.queue.arguments, error);
  if (!arguments)
    throw connection_error("queueDeclare.arguments: " + error);
  amqp_arguments table{*arguments};
  const auto& q = spec_.queue;
  auto* declared = amqp_queue_declare(c, channel, bytes_of(q.name), 0, q.durable, q.exclusive,
                                      q.auto_delete, table.table());
  conn.expect(amqp_get_rpc_reply(c), fmt::format("declaring the queue '{}'", q.name));
  std::string queue{static_cast<const char*>(declared->queue.bytes), declared->queue.len};
  amqp_queue_bind(c, channel, bytes_of(queue), bytes_of(spec_.exchange_name),
                  bytes_of(spec_.routing_key), amqp_empty_table);
  conn.expect(amqp_get_rpc_reply(c),
              fmt::format("binding the {} exchange '{}' to queue '{}' with routing key '{}'",
                          spec_.exchange_type, spec_.exchange_name, queue, spec_.routing_key));
  return queue;
}

void consumer::session(bool& made) {
  connection conn{settings_};
  auto* c = conn.get();
  auto queue = declare(conn);
  const auto& k = spec_.consumer;
  if (!k.auto_ack) {
    amqp_basic_qos(c, channel, 0, options_.prefetch, 0);
    conn.expect(amqp_get_rpc_reply(c), "basic.qos");
  }
  amqp_basic_consume(c, channel, bytes_of(queue), bytes_of(k.consumer_tag), k.no_local,
                     k.auto_ack, k.exclusive, amqp_empty_table);
  conn.expect(amqp_get_rpc_reply(c), fmt::format("consuming from queue '{}'", queue));
  made = true;
  ++generation_;
  in_flight_.clear();
  to_nack_.clear();
  refusing_ = false;
  if (ever_connected_)
    metrics_.reconnected();
  ever_connected_ = true;
  spdlog::info("{}: consuming queue '{}' bound to the {} exchange '{}' with '{}'{}", name_, queue,
               spec_.exchange_type, spec_.exchange_name, spec_.routing_key,
               k.auto_ack ? " (autoAck: at most once)" : "");
  if (ctx_.connected)
    ctx_.connected();
  amqp_channel_open(c, lag_channel);
  conn.expect(amqp_get_rpc_reply(c), "opening the channel that measures the lag");
  auto measured = clock::time_point{};
  while (!stopping_) {
    if (clock::now() - measured >= lag_every) {
      measure_lag(conn, queue);
      measured = clock::now();
    }
    settle(conn);
    if (refusing_ && clock::now() >= resume_at_)
      requeue(conn);
    read(conn);
    auto timeout = std::chrono::milliseconds{1000};
    if (refusing_)
      timeout = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(
                             resume_at_ - clock::now()),
                           std::chrono::milliseconds{0}, timeout);
    if (!conn.buffered())
      wait(conn.fd(), timeout);
  }
  finish(conn);
}

void consumer::measure_lag(connection& conn, const std::string& queue) {
  // Deliveries that arrive while this waits for its answer are queued by librabbitmq and read
  // by the next amqp_consume_message.
  auto* ok = amqp_queue_declare(conn.get(), lag_channel, bytes_of(queue), 1, 0, 0, 0,
                                amqp_empty_table);
  conn.expect(amqp_get_rpc_reply(conn.get()),
              fmt::format("measuring the messages ready in queue '{}'", queue));
  lag_->store(ok->message_count);
}

void consumer::read(connection& conn) {
  for (int i = 0; i < 512 && !stopping_; ++i) {
    amqp_envelope_t envelope;
    timeval now{0, 0};
    amqp_maybe_release_buffers(conn.get());
    auto reply = amqp_consume_message(conn.get(), &envelope, &now, 0);
    if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
      std::unique_ptr<amqp_envelope_t, decltype(&amqp_destroy_envelope)> owned{
        &envelope, &amqp_destroy_envelope};
      handle(conn, envelope);
      continue;
    }
    if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION
        && reply.library_error == AMQP_STATUS_TIMEOUT)
      return;
    if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION
        && reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
      amqp_frame_t frame;
      conn.expect_status(amqp_simple_wait_frame(conn.get(), &frame), "reading a frame");
      if (frame.frame_type != AMQP_FRAME_METHOD)
        continue;
      switch (frame.payload.method.id) {
        case AMQP_CHANNEL_CLOSE_METHOD:
        case AMQP_CONNECTION_CLOSE_METHOD: {
          amqp_rpc_reply_t closed{};
          closed.reply_type = AMQP_RESPONSE_SERVER_EXCEPTION;
          closed.reply = frame.payload.method;
          throw connection_error(reply_text(closed));
        }
        case AMQP_BASIC_CANCEL_METHOD:
          throw connection_error("the broker cancelled the consumer (queue deleted?)");
        default: continue;
      }
    }
    conn.expect(reply, "consuming");
  }
}

void consumer::handle(connection& conn, amqp_envelope_t& envelope) {
  metrics_.received();
  std::string_view body{static_cast<const char*>(envelope.message.body.bytes),
                        envelope.message.body.len};
  auto fields = fields_of(envelope);
  std::string error;
  auto data = amqp_event_data(fields, body, spec_.json_body, spec_.metadata, error);
  auto tag = envelope.delivery_tag;
  bool manual = !spec_.consumer.auto_ack;
  if (!data) {
    metrics_.rejected("invalid_json");
    std::uint64_t held_back = 0;
    if (invalid_log_.allow(held_back))
      spdlog::error("{}: message {} rejected: {} (jsonBody is set){}", name_, fields.message_id,
                    error, core::held_back_note(held_back));
    if (manual)
      conn.expect_status(amqp_basic_reject(conn.get(), channel, tag, 0), "basic.reject");
    return;
  }
  if (manual && refusing_) {
    to_nack_.push_back(tag); // held back until the bus accepts again
    return;
  }
  if (manual)
    in_flight_.insert(tag);
  ctx_.bus->publish(core::make_event(ctx_.event_source_name, "amqp", ctx_.event_name,
                                     std::move(*data)),
                    [box = box_, generation = generation_, tag](core::publish_status status,
                                                                const std::string& error) {
                      box->push({generation, tag, status, error});
                    });
}

void consumer::settle(connection& conn) {
  bool manual = !spec_.consumer.auto_ack;
  for (auto& o : box_->take()) {
    if (o.status == core::publish_status::accepted)
      metrics_.accepted();
    else if (o.status != core::publish_status::filtered)
      metrics_.rejected(core::to_string(o.status));
    if (!manual) {
      std::uint64_t held_back = 0;
      if (!settles_ok(o.status) && dropped_log_.allow(held_back))
        spdlog::warn("{}: the bus refused an event ({}{}); with autoAck the message is lost{}",
                     name_, core::to_string(o.status), o.error.empty() ? "" : ": " + o.error,
                     core::held_back_note(held_back));
      continue;
    }
    if (o.generation != generation_)
      continue; // its channel is gone: the broker redelivers it
    in_flight_.erase(o.tag);
    if (settles_ok(o.status)) {
      conn.expect_status(amqp_basic_ack(conn.get(), channel, o.tag, 0), "basic.ack");
      if (o.status == core::publish_status::accepted && refused_count_ > 0 && !refusing_) {
        spdlog::info("{}: the bus accepts events again; {} refusal(s) were redelivered", name_,
                     refused_count_);
        refused_count_ = 0;
        refused_delay_ = options_.min_refused_delay;
      }
      continue;
    }
    to_nack_.push_back(o.tag);
    ++refused_count_;
    if (!refusing_) {
      if (refused_count_ == 1)
        spdlog::warn("{}: the bus refused an event ({}{}); messages go back to the queue and "
                     "are redelivered once it accepts",
                     name_, core::to_string(o.status), o.error.empty() ? "" : ": " + o.error);
      refusing_ = true;
      resume_at_ = clock::now() + refused_delay_;
      refused_delay_ = std::min(refused_delay_ * 2, options_.max_refused_delay);
    }
  }
}

void consumer::requeue(connection& conn) {
  for (auto tag : to_nack_)
    conn.expect_status(amqp_basic_nack(conn.get(), channel, tag, 0, 1), "basic.nack");
  to_nack_.clear();
  refusing_ = false;
}

void consumer::finish(connection& conn) {
  // Stop deliveries, then acknowledge what the bus accepts within the grace; the broker
  // requeues the rest when the channel closes.
  try {
    if (!spec_.consumer.auto_ack) {
      auto deadline = clock::now() + options_.stop_grace;
      while (!in_flight_.empty() && clock::now() < deadline) {
        settle(conn);
        if (!in_flight_.empty())
          wait(-1, std::chrono::milliseconds{20});
      }
      settle(conn);
    }
  } catch (const std::exception& e) {
    spdlog::warn("{}: while stopping: {}", name_, e.what());
  }
}

} // namespace ganglion::amqp::detail
