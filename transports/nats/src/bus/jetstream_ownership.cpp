#include "bus/jetstream_ownership.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string_view>

namespace ganglion::nats {

namespace {

using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::string_view members_prefix = "members.";
constexpr std::string_view shards_prefix = "shards.";

/// Only letters, digits and `extra`; no leading, trailing or double '.'.
bool valid_name(const std::string& name, std::string_view extra) {
  auto allowed = [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != extra.npos;
  };
  return !name.empty() && std::all_of(name.begin(), name.end(), allowed) &&
         name.front() != '.' && name.back() != '.' && name.find("..") == std::string::npos;
}

std::string default_replica_id() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || !valid_name(host, "_-=."))
    std::snprintf(host, sizeof host, "ganglion");
  std::random_device random;
  return fmt::format("{}-{}-{:04x}", host, ::getpid(), random() & 0xffff);
}

void validate(const ownership_settings& s) {
  if (!valid_name(s.bucket, "_-"))
    throw std::invalid_argument("ownership bucket '" + s.bucket +
                                "': use only letters, digits, '_' and '-'");
  if (!s.replica_id.empty() && !valid_name(s.replica_id, "_-=."))
    throw std::invalid_argument("replica id '" + s.replica_id +
                                "': use only letters, digits, '_', '-', '=' and inner '.'");
  if (s.shards == 0)
    throw std::invalid_argument("ownership shards must be at least 1");
  if (s.tick.count() <= 0 || s.lease_ttl < 3 * s.tick)
    throw std::invalid_argument(fmt::format(
      "ownership lease_ttl ({} ms) must be at least 3 ticks (tick {} ms)", s.lease_ttl.count(),
      s.tick.count()));
}

} // namespace

jetstream_ownership::jetstream_ownership(natsConnection* connection, ownership_settings settings)
  : connection_(connection), settings_(std::move(settings)), ttl_(settings_.lease_ttl),
    wait_(std::max(settings_.tick / 2, milliseconds(50))), registry_(std::make_shared<registry>()) {
  validate(settings_);
  if (settings_.replica_id.empty())
    settings_.replica_id = default_replica_id();
  member_key_ = std::string(members_prefix) + settings_.replica_id;
  shards_.resize(settings_.shards);
  registry_->by_shard.resize(settings_.shards);
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = wait_.count();
  if (natsConnection_JetStream(&js_, connection_, &options) != NATS_OK)
    throw std::runtime_error("ownership: cannot open a JetStream context: " +
                             std::string(nats_GetLastError(nullptr)));
  thread_ = std::thread([this] { run(); });
}

jetstream_ownership::~jetstream_ownership() {
  stop_thread();
  if (!abandoned_)
    release_all();
  log_changes();
  if (kv_ != nullptr)
    kvStore_Destroy(kv_);
  jsCtx_Destroy(js_);
}

void jetstream_ownership::abandon() {
  abandoned_ = true;
  stop_thread();
}

std::shared_ptr<void> jetstream_ownership::watch(const std::string& name,
                                                 std::function<void(bool owned)> changed) {
  auto w = std::make_shared<watcher>();
  w->shard = core::shard_of(name, settings_.shards);
  w->changed = std::move(changed);
  {
    std::lock_guard lock{registry_->mutex};
    registry_->by_shard[w->shard].push_back(w);
    registry_->fresh.push_back(w);
  }
  {
    std::lock_guard lock{mutex_};
    fresh_ = true;
  }
  wake_.notify_one();
  std::weak_ptr<registry> reg = registry_;
  return std::shared_ptr<void>(w.get(), [w, reg](void*) {
    {
      std::lock_guard lock{w->calling};
      w->active = false;
    }
    if (auto r = reg.lock())
      r->remove(w);
  });
}

void jetstream_ownership::run() {
  auto next_tick = steady::now();
  std::unique_lock lock{mutex_};
  while (!stopping_) {
    auto wake_at = next_tick;
    for (const auto& sh : shards_)
      if (sh.held)
        wake_at = std::min(wake_at, sh.deadline);
    wake_.wait_until(lock, wake_at, [this] { return stopping_ || fresh_; });
    if (stopping_)
      break;
    fresh_ = false;
    lock.unlock();
    expire_overdue();
    if (auto started = steady::now(); started >= next_tick) {
      tick();
      expire_overdue();
      next_tick = started + settings_.tick;
    }
    notify_fresh();
    log_changes();
    lock.lock();
  }
}

void jetstream_ownership::tick() {
  if (natsConnection_Status(connection_) != NATS_CONN_STATUS_CONNECTED) {
    last_error_ = "not connected";
    return unreachable();
  }
  if (!ensure_bucket())
    return unreachable();
  const auto& id = settings_.replica_id;
  snapshot now;
  if (check(kvStore_PutString(nullptr, kv_, member_key_.c_str(), id.c_str()), "heartbeat") !=
        outcome::ok ||
      !read(now))
    return unreachable();
  if (!reachable_) {
    reachable_ = true;
    spdlog::info("ownership {}: NATS JetStream reachable again", id);
  }
  if (std::find(now.members.begin(), now.members.end(), id) == now.members.end())
    now.members.push_back(id);
  std::vector<std::string> holders;
  for (const auto& l : now.shards)
    if (l)
      holders.push_back(l->owner);
  for (std::uint32_t k = 0; k < settings_.shards; ++k) {
    auto preferred = preferred_owner(k, now.members);
    bool takes_leases = std::find(holders.begin(), holders.end(), preferred) != holders.end();
    if (!step(k, now.shards[k], preferred, takes_leases))
      return unreachable();
  }
}

bool jetstream_ownership::step(std::uint32_t k, const std::optional<lease>& current,
                               const std::string& preferred, bool preferred_takes_leases) {
  expire_overdue();
  const auto& id = settings_.replica_id;
  auto& sh = shards_[k];
  auto now = steady::now();
  if (current)
    sh.empty_since.reset();
  else if (!sh.empty_since)
    sh.empty_since = now;
  bool mine = current && current->owner == id;
  bool preferred_here = preferred == id;
  auto key = shard_key(k);
  if (sh.held && !mine) {
    set_held(k, false, current ? "taken by " + current->owner : "lease vanished");
    return true;
  }
  // A shard taken because its preferred owner left it free goes back once that owner is seen
  // holding leases again; any other goes to its preferred owner at once.
  if (sh.held && !preferred_here && (preferred != sh.passed_over || preferred_takes_leases)) {
    set_held(k, false, "handed to " + preferred);
    return check(kvStore_Delete(kv_, key.c_str()), "release a shard") != outcome::unreachable;
  }
  if (!sh.held) {
    bool idle = !current && now - *sh.empty_since >= ttl_;
    if ((current && !mine) || (mine && !preferred_here) || (!preferred_here && !idle))
      return true;
  }
  auto sent = steady::now();
  auto status = mine ? kvStore_UpdateString(nullptr, kv_, key.c_str(), id.c_str(),
                                            current->revision)
                     : kvStore_CreateString(nullptr, kv_, key.c_str(), id.c_str());
  switch (check(status, mine ? "renew a lease" : "take a lease")) {
  case outcome::unreachable:
    return false;
  case outcome::rejected:
    if (sh.held)
      set_held(k, false, last_error_);
    return true;
  case outcome::ok:
    break;
  }
  sh.deadline = sent + ttl_ - settings_.tick;
  if (!sh.held) {
    sh.passed_over = preferred_here ? std::string{} : preferred;
    set_held(k, true, preferred_here ? "preferred" : "free for a whole TTL");
  }
  return true;
}

bool jetstream_ownership::ensure_bucket() {
  if (kv_ != nullptr)
    return true;
  kvConfig config;
  kvConfig_Init(&config);
  config.Bucket = settings_.bucket.c_str();
  config.History = 1;
  config.TTL = std::chrono::nanoseconds(settings_.lease_ttl).count();
  config.StorageType = js_FileStorage;
  auto status = js_CreateKeyValue(&kv_, js_, &config);
  if (status == NATS_ERR) {
    // The bucket exists with another configuration: bind to it and live by its TTL.
    status = js_KeyValue(&kv_, js_, settings_.bucket.c_str());
    if (status == NATS_OK)
      adopt_bucket_ttl();
  }
  if (check(status, "bind the ownership bucket") == outcome::ok)
    return true;
  kv_ = nullptr;
  return false;
}

void jetstream_ownership::adopt_bucket_ttl() {
  kvStatus* status = nullptr;
  if (kvStore_Status(&status, kv_) != NATS_OK)
    return;
  auto ttl = std::chrono::duration_cast<milliseconds>(
    std::chrono::nanoseconds(kvStatus_TTL(status)));
  kvStatus_Destroy(status);
  if (ttl == ttl_)
    return;
  // A lease must not be believed held longer than the server keeps it: never exceed its TTL.
  spdlog::warn("ownership bucket {} keeps values for {} ms, not {} ms (0 = forever: a dead "
               "replica's shards never move; delete the bucket to fix it)",
               settings_.bucket, ttl.count(), settings_.lease_ttl.count());
  if (ttl.count() > 0)
    ttl_ = ttl;
}

bool jetstream_ownership::read(snapshot& out) {
  out.shards.assign(settings_.shards, std::nullopt);
  kvWatchOptions options;
  kvWatchOptions_Init(&options);
  options.IgnoreDeletes = true;
  kvWatcher* watcher = nullptr;
  if (check(kvStore_WatchAll(&watcher, kv_, &options), "read the bucket") != outcome::ok)
    return false;
  auto deadline = steady::now() + wait_;
  natsStatus status = NATS_OK;
  for (;;) {
    auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now()).count();
    kvEntry* entry = nullptr;
    status = kvWatcher_Next(&entry, watcher, std::max<std::int64_t>(left, 1));
    if (status != NATS_OK || entry == nullptr)
      break;
    std::string_view key = kvEntry_Key(entry);
    if (key.starts_with(members_prefix)) {
      out.members.emplace_back(key.substr(members_prefix.size()));
    } else if (key.starts_with(shards_prefix)) {
      std::uint32_t k = 0;
      auto digits = key.substr(shards_prefix.size());
      auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
      if (error == std::errc{} && end == digits.data() + digits.size() && k < settings_.shards)
        out.shards[k] = lease{std::string(static_cast<const char*>(kvEntry_Value(entry)),
                                          static_cast<std::size_t>(kvEntry_ValueLen(entry))),
                              kvEntry_Revision(entry)};
    }
    kvEntry_Destroy(entry);
  }
  kvWatcher_Destroy(watcher);
  return check(status, "read the bucket") == outcome::ok;
}

jetstream_ownership::outcome jetstream_ownership::check(natsStatus status, const char* what) {
  if (status == NATS_OK)
    return outcome::ok;
  natsStatus last = NATS_OK;
  const char* text = nats_GetLastError(&last);
  last_error_ = fmt::format("cannot {}: {}", what,
                            last == status && text != nullptr && *text != '\0'
                              ? text
                              : natsStatus_GetText(status));
  return status == NATS_ERR ? outcome::rejected : outcome::unreachable;
}

void jetstream_ownership::unreachable() {
  for (auto& sh : shards_)
    sh.empty_since.reset(); // "free for a whole TTL" needs a TTL of uninterrupted observation
  if (kv_ != nullptr) {
    kvStore_Destroy(kv_);
    kv_ = nullptr;
  }
  if (!reachable_)
    return;
  reachable_ = false;
  spdlog::warn("ownership {}: NATS JetStream unreachable ({}); held shards stay owned until "
               "their leases run out",
               settings_.replica_id, last_error_);
}

void jetstream_ownership::set_held(std::uint32_t k, bool held, const std::string& why) {
  shards_[k].held = held;
  changes_[fmt::format("{} ({})", held ? "gained" : "lost", why)].push_back(k);
  for (const auto& w : registry_->of(k))
    w->report(held);
}

void jetstream_ownership::log_changes() {
  for (const auto& [what, shards] : changes_)
    spdlog::info("ownership {}: {} shard(s) {} {}", settings_.replica_id, shards.size(),
                 fmt::join(shards, ","), what);
  changes_.clear();
}

void jetstream_ownership::expire_overdue() {
  auto now = steady::now();
  bool overdue = false;
  for (const auto& sh : shards_)
    overdue = overdue || (sh.held && now >= sh.deadline);
  if (!overdue)
    return;
  // Leases renewed in one tick run out within one: give them up together (a little early is
  // safe; nobody else takes a shard before its lease ran out) — one log line, not one a shard.
  for (std::uint32_t k = 0; k < settings_.shards; ++k)
    if (shards_[k].held && now + settings_.tick >= shards_[k].deadline)
      set_held(k, false, "lease not renewed in time");
}

void jetstream_ownership::notify_fresh() {
  std::vector<std::shared_ptr<watcher>> fresh;
  {
    std::lock_guard lock{registry_->mutex};
    fresh.swap(registry_->fresh);
  }
  for (const auto& w : fresh)
    if (shards_[w->shard].held)
      w->report(true);
}

void jetstream_ownership::stop_thread() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void jetstream_ownership::release_all() {
  bool connected =
    kv_ != nullptr && natsConnection_Status(connection_) == NATS_CONN_STATUS_CONNECTED;
  if (connected)
    connected = check(kvStore_Delete(kv_, member_key_.c_str()), "delete the heartbeat") !=
                outcome::unreachable;
  for (std::uint32_t k = 0; k < settings_.shards; ++k) {
    if (!shards_[k].held)
      continue;
    bool in_time = steady::now() < shards_[k].deadline;
    set_held(k, false, "stopping");
    if (connected && in_time)
      connected = check(kvStore_Delete(kv_, shard_key(k).c_str()), "release a shard") !=
                  outcome::unreachable;
  }
}

std::string jetstream_ownership::preferred_owner(std::uint32_t k,
                                                 const std::vector<std::string>& members) const {
  const std::string* best = nullptr;
  std::uint64_t best_hash = 0;
  for (const auto& member : members) {
    auto input = fmt::format("{}/{}", member, k);
    auto hash = XXH3_64bits(input.data(), input.size());
    if (best == nullptr || hash > best_hash || (hash == best_hash && member < *best)) {
      best = &member;
      best_hash = hash;
    }
  }
  return best != nullptr ? *best : std::string{};
}

std::string jetstream_ownership::shard_key(std::uint32_t k) const {
  return fmt::format("{}{}", shards_prefix, k);
}

} // namespace ganglion::nats
