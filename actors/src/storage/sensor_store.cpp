#include "storage/sensor_store.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <xxhash.h>

#include "ganglion/core/event_codec.hpp"
#include "base/storage_bytes.hpp"

namespace ganglion::core {

namespace {

constexpr std::uint32_t snapshot_magic = 0x314E5347; // "GSN1"
constexpr std::size_t snapshot_header_bytes = 24;
constexpr std::size_t completion_bytes = 40;
constexpr std::string_view generation_prefix = "completed.";

std::string encode_snapshot(const sensor_snapshot& s) {
  std::string content;
  put_u64(content, s.cursor);
  put_u32(content, static_cast<std::uint32_t>(s.held.size()));
  for (const auto& h : s.held) {
    put_u32(content, static_cast<std::uint32_t>(h.trigger.size()));
    content.append(h.trigger);
    put_u32(content, static_cast<std::uint32_t>(h.dependency.size()));
    content.append(h.dependency);
    put_u64(content, h.e.sequence);
    put_u32(content, static_cast<std::uint32_t>(encoded_size(h.e)));
    encode_event(h.e, content);
  }
  std::string file;
  file.reserve(snapshot_header_bytes + content.size());
  put_u32(file, snapshot_magic);
  put_u32(file, 0);
  put_u64(file, content.size());
  put_u64(file, XXH3_64bits(content.data(), content.size()));
  file.append(content);
  return file;
}

/// The snapshot in `file`; nullopt when it is torn or corrupt.
std::optional<sensor_snapshot> decode_snapshot(std::string_view file) {
  byte_reader header{file.substr(0, std::min(file.size(), snapshot_header_bytes))};
  std::uint32_t magic = 0, flags = 0;
  std::uint64_t length = 0, checksum = 0;
  if (!header.u32(magic) || !header.u32(flags) || !header.u64(length) || !header.u64(checksum)
      || magic != snapshot_magic || length != file.size() - snapshot_header_bytes)
    return std::nullopt;
  auto content = file.substr(snapshot_header_bytes);
  if (XXH3_64bits(content.data(), content.size()) != checksum)
    return std::nullopt;
  byte_reader in{content};
  sensor_snapshot s;
  std::uint32_t count = 0;
  if (!in.u64(s.cursor) || !in.u32(count))
    return std::nullopt;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string_view trigger, dependency, encoded;
    held_event h;
    if (!in.string(trigger) || !in.string(dependency) || !in.u64(h.e.sequence)
        || !in.string(encoded) || !decode_event(encoded, h.e))
      return std::nullopt;
    h.trigger.assign(trigger);
    h.dependency.assign(dependency);
    s.held.push_back(std::move(h));
  }
  if (!in.empty())
    return std::nullopt;
  return s;
}

void put_completion(std::string& out, const completion& c) {
  auto start = out.size();
  put_u64(out, c.sequence);
  put_u64(out, c.id_low);
  put_u64(out, c.id_high);
  put_u64(out, static_cast<std::uint64_t>(c.unix_ms));
  put_u64(out, XXH3_64bits(out.data() + start, completion_bytes - 8));
}

/// The valid records at the start of a journal file's bytes, appended to `out`; returns the
/// bytes they span.
std::size_t read_completions(std::string_view bytes, std::vector<completion>& out) {
  std::size_t at = 0;
  for (; at + completion_bytes <= bytes.size(); at += completion_bytes) {
    const char* r = bytes.data() + at;
    if (XXH3_64bits(r, completion_bytes - 8) != load_u64(r + 32))
      break;
    out.push_back({load_u64(r), load_u64(r + 8), load_u64(r + 16),
                   static_cast<std::int64_t>(load_u64(r + 24))});
  }
  return at;
}

} // namespace

sensor_store::sensor_store(std::string directory, fsync_policy policy)
  : directory_(std::move(directory)), policy_(policy) {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec)
    throw sensor_store_error(
      fmt::format("cannot create sensor directory {}: {}", directory_, ec.message()));
  auto existing = generations();
  if (!existing.empty()) {
    generation_ = existing.back();
    repair_journal();
  }
}

std::string sensor_store::path(const std::string& name) const {
  return (std::filesystem::path(directory_) / name).string();
}

std::vector<std::uint64_t> sensor_store::generations() const {
  std::vector<std::uint64_t> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, ec)) {
    auto name = entry.path().filename().string();
    if (!name.starts_with(generation_prefix))
      continue;
    std::uint64_t n = 0;
    auto digits = std::string_view(name).substr(generation_prefix.size());
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (error == std::errc{} && end == digits.data() + digits.size() && !digits.empty())
      found.push_back(n);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string sensor_store::journal_path() const {
  return path(fmt::format("{}{}", generation_prefix, generation_));
}

void sensor_store::repair_journal() {
  auto file = journal_path();
  std::string bytes;
  if (int error = read_whole_file(file, bytes))
    throw sensor_store_error(fmt::format("cannot read {}: {}", file, error_text(error)));
  std::vector<completion> ignored;
  auto complete = read_completions(bytes, ignored);
  if (complete != bytes.size() && ::truncate(file.c_str(), static_cast<off_t>(complete)) != 0)
    throw sensor_store_error(fmt::format("cannot truncate {}: {}", file, error_text(errno)));
}

void sensor_store::open_journal() {
  // Opened on the first append: thousands of sensors that finish nothing hold no descriptor.
  auto file = journal_path();
  bool created = ::access(file.c_str(), F_OK) != 0;
  journal_.reset(::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
  if (!journal_)
    throw sensor_store_error(fmt::format("cannot open {}: {}", file, error_text(errno)));
  struct stat info {};
  journal_bytes_ =
    ::fstat(journal_.get(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
  if (created && policy_ == fsync_policy::always)
    sync_directory(directory_);
}

sensor_snapshot sensor_store::load_snapshot() const {
  for (const char* name : {"snapshot", "snapshot.prev"}) {
    std::string bytes;
    int error = read_whole_file(path(name), bytes);
    if (error == ENOENT)
      continue;
    if (error != 0) {
      spdlog::warn("sensor state {}: cannot read {}: {}", directory_, name, error_text(error));
      continue;
    }
    if (auto s = decode_snapshot(bytes))
      return std::move(*s);
    spdlog::warn("sensor state {}: {} is torn or corrupt; ignoring it", directory_, name);
  }
  return {};
}

void sensor_store::save_snapshot(const sensor_snapshot& s) {
  auto bytes = encode_snapshot(s);
  auto tmp = path("snapshot.tmp");
  auto current = path("snapshot");
  unique_fd fd{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
  if (!fd)
    throw sensor_store_error(fmt::format("cannot create {}: {}", tmp, error_text(errno)));
  if (int error = write_all(fd.get(), bytes.data(), bytes.size())) {
    ::unlink(tmp.c_str()); // a full disk gets back what the partial copy took
    throw sensor_store_error(fmt::format("cannot write {}: {}", tmp, error_text(error)));
  }
  if (policy_ == fsync_policy::always) {
    if (int error = data_sync(fd.get()))
      throw sensor_store_error(fmt::format("cannot sync {}: {}", tmp, error_text(error)));
  }
  fd.reset();
  if (std::rename(current.c_str(), path("snapshot.prev").c_str()) != 0 && errno != ENOENT)
    throw sensor_store_error(fmt::format("cannot rename {}: {}", current, error_text(errno)));
  if (std::rename(tmp.c_str(), current.c_str()) != 0)
    throw sensor_store_error(fmt::format("cannot rename {}: {}", tmp, error_text(errno)));
  if (policy_ == fsync_policy::always) {
    if (int error = sync_directory(directory_))
      throw sensor_store_error(
        fmt::format("cannot sync directory {}: {}", directory_, error_text(error)));
  }
}

void sensor_store::append_completions(std::span<const completion> items) {
  if (items.empty())
    return;
  if (!journal_)
    open_journal();
  std::string bytes;
  bytes.reserve(items.size() * completion_bytes);
  for (const auto& c : items)
    put_completion(bytes, c);
  if (int error = write_all(journal_.get(), bytes.data(), bytes.size())) {
    // Cut a partial record so later appends stay aligned.
    if (::ftruncate(journal_.get(), static_cast<off_t>(journal_bytes_)) != 0)
      spdlog::warn("sensor state {}: cannot truncate the journal: {}", directory_,
                   error_text(errno));
    throw sensor_store_error(
      fmt::format("cannot write the journal of {}: {}", directory_, error_text(error)));
  }
  journal_bytes_ += bytes.size();
  if (policy_ == fsync_policy::always) {
    if (int error = data_sync(journal_.get()))
      throw sensor_store_error(
        fmt::format("cannot sync the journal of {}: {}", directory_, error_text(error)));
  }
}

std::vector<completion> sensor_store::load_completions() const {
  auto found = generations();
  std::vector<completion> out;
  auto from = found.size() > 2 ? found.end() - 2 : found.begin();
  for (auto it = from; it != found.end(); ++it) {
    std::string bytes;
    auto file = path(fmt::format("{}{}", generation_prefix, *it));
    if (int error = read_whole_file(file, bytes)) {
      if (error != ENOENT)
        spdlog::warn("sensor state {}: cannot read {}: {}", directory_, file, error_text(error));
      continue;
    }
    read_completions(bytes, out);
  }
  return out;
}

void sensor_store::rotate_completions() {
  ++generation_;
  journal_.reset();
  for (auto n : generations()) {
    if (n + 1 >= generation_)
      continue;
    auto file = path(fmt::format("{}{}", generation_prefix, n));
    if (::unlink(file.c_str()) != 0 && errno != ENOENT)
      spdlog::warn("sensor state {}: cannot delete {}: {}", directory_, file, error_text(errno));
  }
}

void sensor_store::remove(const std::string& directory) {
  std::error_code ec;
  std::filesystem::remove_all(directory, ec);
  if (ec)
    spdlog::warn("cannot delete the state of a removed sensor, {}: {}", directory, ec.message());
}

} // namespace ganglion::core
