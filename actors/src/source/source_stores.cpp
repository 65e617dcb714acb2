#include "source/source_stores.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

#include "storage/storage_io.hpp"

namespace ganglion::core {

namespace {

/// A key as a file name: letters, digits, `-`, `_` and `.` as they are, other bytes as `%XX`.
std::string file_name_of(const std::string& key) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : key) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                 || c == '-' || c == '_' || (c == '.' && !out.empty());
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

class file_store final : public source_store {
public:
  explicit file_store(std::string directory) : directory_(std::move(directory)) {}

  std::optional<std::string> load(const std::string& key) override {
    std::string value;
    int error = read_whole_file(path_of(key), value);
    if (error == ENOENT)
      return std::nullopt;
    if (error != 0)
      throw std::runtime_error("cannot read " + path_of(key) + ": " + error_text(error));
    return value;
  }

  void save(const std::string& key, std::string value, save_done done) override {
    std::string error;
    {
      std::lock_guard guard{mutex_};
      error = write(key, value);
    }
    done(error);
  }

  std::string where() const override { return "the data directory " + directory_; }
  bool durable() const override { return true; }

private:
  std::string path_of(const std::string& key) const {
    return directory_ + "/" + file_name_of(key);
  }

  std::string write(const std::string& key, const std::string& value) {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec)
      return "cannot create " + directory_ + ": " + ec.message();
    auto path = path_of(key);
    auto written = path + ".new";
    int fd = ::open(written.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
      return "cannot write " + written + ": " + error_text(errno);
    int error = write_all(fd, value.data(), value.size());
    ::close(fd);
    if (error == 0 && ::rename(written.c_str(), path.c_str()) != 0)
      error = errno;
    return error == 0 ? std::string{} : "cannot write " + path + ": " + error_text(error);
  }

  std::string directory_;
  std::mutex mutex_;
};

class memory_store final : public source_store {
public:
  std::optional<std::string> load(const std::string& key) override {
    std::lock_guard guard{mutex_};
    auto i = values_.find(key);
    return i == values_.end() ? std::nullopt : std::optional<std::string>{i->second};
  }

  void save(const std::string& key, std::string value, save_done done) override {
    {
      std::lock_guard guard{mutex_};
      values_[key] = std::move(value);
    }
    done({});
  }

  std::string where() const override { return "memory (lost at exit: no --data-dir)"; }
  bool durable() const override { return false; }

private:
  std::mutex mutex_;
  std::map<std::string, std::string> values_;
};

class remote_store final : public source_store {
public:
  explicit remote_store(std::shared_ptr<remote_bus> bus) : bus_(std::move(bus)) {}

  std::optional<std::string> load(const std::string& key) override {
    return bus_->state().load("source." + key);
  }

  void save(const std::string& key, std::string value, save_done done) override {
    bus_->state().store("source." + key, std::move(value), std::move(done));
  }

  std::string where() const override { return "the " + bus_->kind() + " bus"; }
  bool durable() const override { return true; }

private:
  std::shared_ptr<remote_bus> bus_;
};

} // namespace

std::shared_ptr<source_store> make_file_source_store(std::string directory) {
  return std::make_shared<file_store>(std::move(directory));
}

std::shared_ptr<source_store> make_memory_source_store() {
  return std::make_shared<memory_store>();
}

std::shared_ptr<source_store> make_remote_source_store(std::shared_ptr<remote_bus> bus) {
  return std::make_shared<remote_store>(std::move(bus));
}

} // namespace ganglion::core
