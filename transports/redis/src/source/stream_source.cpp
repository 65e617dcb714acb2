// The `redisStream` event source: XREADGROUP on its streams through one consumer group, each
// entry XACKed once the bus accepted its event.

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "client/credentials.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/redis/transport.hpp"
#include "source/event_data.hpp"
#include "source/source_loop.hpp"

namespace ganglion::redis {

namespace {

/// The outcomes of one read's events, filled by the bus's callbacks.
struct batch {
  explicit batch(std::size_t n) : outcomes(n, core::publish_status::stopped), remaining(n) {}
  std::mutex mutex;
  std::condition_variable done;
  std::vector<core::publish_status> outcomes;
  std::size_t remaining;
};

/// One entry read: its stream (index) and ID.
struct read_entry {
  std::size_t stream;
  std::string id;
};

/// The serving state of one redisStream source.
class stream_reader {
public:
  stream_reader(const core::source_context& ctx, const stream_spec& spec, const options& opts)
    : name(fmt::format("redisStream source {}/{}", ctx.event_source_name, ctx.event_name)),
      spec_(spec), opts_(opts), event_source_(ctx.event_source_name),
      event_name_(ctx.event_name), bus_(ctx.bus),
      metrics(ctx.metrics, ctx.event_source_name, ctx.event_name),
      cursors_(spec.streams.size(), "0-0") {}

  /// XGROUP CREATE on every stream (from `$`, as Argo); then the pending entries are read
  /// first. Throws connection_error (also when a stream does not exist, as Argo fails).
  void prepare(connection& conn) {
    for (const auto& stream : spec_.streams) {
      auto r = conn.call({"XGROUP", "CREATE", stream, spec_.group(), "$"});
      if (!r)
        throw connection_error("stopped");
      if (r->is_error() && r->text.rfind("BUSYGROUP", 0) != 0)
        throw connection_error(fmt::format(
          "creating consumer group {} for stream {} on host {}: {}", spec_.group(), stream,
          spec_.host_address, r->text));
    }
    std::fill(cursors_.begin(), cursors_.end(), "0-0");
  }

  /// Reads, publishes and acknowledges until stopping. Up to `read_ahead` reads are on the bus
  /// at once: the next is read while the earlier ones wait for the bus, each acknowledged
  /// (XACK, not waited for) once the bus settled all of its entries, oldest first. A refusal
  /// stops the reading ahead until every read in flight is settled; then the refused streams
  /// are read again from this consumer's first pending entry.
  void serve(connection& conn, source_loop& loop) {
    auto retry = opts_.retry_delay;
    std::deque<in_flight> flight;
    unread_acks_ = 0;
    while (!loop.stopping()) {
      auto r = read_next(conn, loop, flight.empty());
      if (!r)
        return;
      bool got = false;
      if (r->kind == reply::type::array) {
        auto read = publish(*r);
        got = !read.entries.empty();
        if (got)
          flight.push_back(std::move(read));
      }
      // Settle the oldest reads: those done, and while the window is full, nothing new came or
      // a refusal waits, the oldest one whatever it takes.
      while (!flight.empty()) {
        bool must = flight.size() >= read_ahead || !got || !refused_streams_.empty();
        if (!settled(flight.front(), loop, must)) {
          if (loop.stopping())
            return;
          break;
        }
        acknowledge(conn, flight.front());
        flight.pop_front();
      }
      if (!flight.empty() || refused_streams_.empty()) {
        if (flight.empty())
          retry = opts_.retry_delay;
        continue;
      }
      for (auto s : refused_streams_)
        cursors_[s] = "0-0"; // re-read this consumer's pending entries from the start
      refused_streams_.clear();
      if (!loop.pause(retry))
        return;
      retry = std::min(retry * 2, opts_.max_reconnect_delay);
    }
  }

  /// `redisStream source <eventsource>/<event>`, for logs.
  std::string name;

private:
  /// Reads on the bus at once (of `COUNT` entries each).
  static constexpr std::size_t read_ahead = 4;

  /// One read's entries on the bus.
  struct in_flight {
    std::vector<read_entry> entries;
    std::shared_ptr<batch> outcome;
  };

  std::size_t index_of(const std::string& stream) const {
    auto i = std::find(spec_.streams.begin(), spec_.streams.end(), stream);
    return static_cast<std::size_t>(i - spec_.streams.begin());
  }

  /// Sends XREADGROUP (blocking up to `block` when `may_block`, else answering at once) and
  /// returns its reply, after the replies of the XACKs sent before it. nullopt when stopping.
  /// Throws connection_error.
  std::optional<reply> read_next(connection& conn, source_loop& loop, bool may_block) {
    std::vector<std::string> args{"XREADGROUP", "GROUP", spec_.group(), consumer_name, "COUNT",
                                  std::to_string(spec_.count())};
    if (may_block) {
      args.emplace_back("BLOCK");
      args.push_back(std::to_string(opts_.block.count()));
    }
    args.emplace_back("STREAMS");
    args.insert(args.end(), spec_.streams.begin(), spec_.streams.end());
    args.insert(args.end(), cursors_.begin(), cursors_.end());
    conn.send(args);
    for (; unread_acks_ > 0; --unread_acks_) {
      auto ack = conn.read(opts_.connect_timeout);
      if (!ack) {
        if (loop.stopping())
          return std::nullopt;
        throw connection_error("no reply to XACK");
      }
      if (ack->is_error())
        spdlog::error("{}: XACK failed: {}", name, ack->text);
    }
    auto r = conn.read((may_block ? opts_.block : std::chrono::milliseconds{0})
                       + opts_.connect_timeout);
    if (!r) {
      if (loop.stopping())
        return std::nullopt;
      throw connection_error("no reply to XREADGROUP");
    }
    if (r->is_error())
      throw connection_error("XREADGROUP failed: " + r->text); // NOGROUP: made again
    return r;
  }

  /// Publishes the entries of one XREADGROUP reply and moves each stream's cursor past them.
  in_flight publish(const reply& r) {
    in_flight out;
    std::vector<std::string> data;
    for (const auto& per_stream : r.elements) {
      if (per_stream.elements.size() != 2)
        continue;
      auto index = index_of(per_stream.elements[0].text);
      if (index >= spec_.streams.size())
        continue;
      const auto& list = per_stream.elements[1].elements;
      if (list.empty())
        cursors_[index] = ">"; // the pending entries are done: new ones from now on
      for (const auto& entry : list) {
        if (entry.elements.empty())
          continue;
        std::optional<std::map<std::string, std::string>> values;
        if (entry.elements.size() > 1 && entry.elements[1].kind == reply::type::array) {
          values.emplace();
          const auto& fields = entry.elements[1].elements;
          for (std::size_t i = 0; i + 1 < fields.size(); i += 2)
            (*values)[fields[i].text] = fields[i + 1].text;
        }
        out.entries.push_back({index, entry.elements[0].text});
        data.push_back(stream_event_data(spec_.streams[index], entry.elements[0].text, values,
                                         spec_.metadata));
        if (cursors_[index] != ">")
          cursors_[index] = entry.elements[0].text; // the next pending read starts after it
      }
    }
    out.outcome = std::make_shared<batch>(out.entries.size());
    for (std::size_t i = 0; i < out.entries.size(); ++i) {
      metrics.received();
      bus_->publish(core::make_event(event_source_, "redisStream", event_name_,
                                     std::move(data[i])),
                    [outcome = out.outcome, i](core::publish_status status, const std::string&) {
                      {
                        std::lock_guard guard{outcome->mutex};
                        outcome->outcomes[i] = status;
                        --outcome->remaining;
                      }
                      outcome->done.notify_all();
                    });
    }
    return out;
  }

  /// Whether the bus settled every entry of `read`; with `wait`, waits until it did (false
  /// then only when stopping).
  static bool settled(const in_flight& read, source_loop& loop, bool wait) {
    std::unique_lock lock{read.outcome->mutex};
    auto done = [&] { return read.outcome->remaining == 0; };
    if (!wait)
      return done();
    while (!read.outcome->done.wait_for(lock, std::chrono::milliseconds(50), done))
      if (loop.stopping())
        return false;
    return true;
  }

  /// Sends the XACKs of what the bus took of `read` (their replies are read before the next
  /// XREADGROUP's); notes the streams of what it refused.
  void acknowledge(connection& conn, const in_flight& read) {
    std::vector<std::vector<std::string>> acks(spec_.streams.size());
    for (std::size_t i = 0; i < read.entries.size(); ++i) {
      const auto& entry = read.entries[i];
      auto status = read.outcome->outcomes[i];
      if (status == core::publish_status::accepted || status == core::publish_status::filtered) {
        if (status == core::publish_status::accepted)
          metrics.accepted();
        acks[entry.stream].push_back(entry.id);
        continue;
      }
      metrics.rejected(core::to_string(status));
      refused_streams_.insert(entry.stream);
      std::uint64_t held_back = 0;
      if (refused_log_.allow(held_back))
        spdlog::warn("{}: the bus refused entry {} of {} ({}); it stays pending and is read "
                     "again{}",
                     name, entry.id, spec_.streams[entry.stream], core::to_string(status),
                     core::held_back_note(held_back));
    }
    for (std::size_t s = 0; s < spec_.streams.size(); ++s) {
      if (acks[s].empty())
        continue;
      std::vector<std::string> args{"XACK", spec_.streams[s], spec_.group()};
      args.insert(args.end(), acks[s].begin(), acks[s].end());
      conn.send(args);
      ++unread_acks_;
    }
  }

  stream_spec spec_;
  options opts_;
  std::string event_source_;
  std::string event_name_;
  std::shared_ptr<core::bus_publisher> bus_;

public:
  /// The source's counters (the loop counts its reconnections there too); an entry the bus
  /// refused is read again.
  core::message_source_counters metrics;

private:
  std::vector<std::string> cursors_; ///< per stream: a pending entry ID, or `>` (new ones)
  std::set<std::size_t> refused_streams_; ///< streams with an entry the bus refused
  std::size_t unread_acks_ = 0;           ///< XACKs sent whose replies are not read yet
  core::log_throttle refused_log_;
};

/// A running redisStream source.
class stream_source final : public core::source {
public:
  stream_source(const core::source_context& ctx, const stream_spec& spec, const options& opts,
                server_settings settings)
    : reader_(ctx, spec, opts) {
    source_loop::hooks hooks;
    hooks.prepare = [this](connection& c) { reader_.prepare(c); };
    hooks.serve = [this](connection& c) { reader_.serve(c, *loop_); };
    loop_ = std::make_unique<source_loop>(reader_.name, std::move(settings), opts,
                                          std::move(hooks), ctx.fail, reader_.metrics);
    loop_->start();
  }

private:
  stream_reader reader_;
  std::unique_ptr<source_loop> loop_;
};

std::unique_ptr<core::source> start_stream_source(const options& opts,
                                                  const core::source_context& ctx) {
  const auto& spec = core::spec_of<stream_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("redisStream source started without a bus");
  auto name = fmt::format("redisStream source {}/{}", ctx.event_source_name, ctx.event_name);
  try {
    auto settings = resolve_server(spec, ctx.secrets.get(), "redisStream." + ctx.event_name);
    auto source = std::make_unique<stream_source>(ctx, spec, opts, std::move(settings));
    spdlog::info("{}: reading {} on {} as group {}", name, fmt::join(spec.streams, ", "),
                 spec.host_address, spec.group());
    return source;
  } catch (const connection_error& e) {
    throw core::source_error(fmt::format("{}: {}", name, e.what()));
  }
}

} // namespace

std::vector<std::string> check_stream_source(const core::source_context& ctx) {
  return core::check_spec<stream_spec>(ctx, [&](const auto& spec) {
    auto name = fmt::format("redisStream source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.host_address.empty())
      problems.push_back(fmt::format("{}: host address must be specified", name));
    if (spec.streams.empty())
      problems.push_back(fmt::format("{}: stream/streams must be specified", name));
    return problems;
  });
}

core::source_factory make_stream_source_factory(options opts) {
  return {[opts](const core::source_context& ctx) { return start_stream_source(opts, ctx); },
          check_stream_source, stream_spec_step()};
}

} // namespace ganglion::redis
