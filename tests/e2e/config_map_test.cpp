// Manifests mounted the way Kubernetes mounts a ConfigMap (its atomic writer), and the limits of
// what a manifest may cost, through the real binary.

#include <filesystem>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

namespace fs = std::filesystem;

/// A directory laid out as the kubelet mounts a ConfigMap with the key `manifests.yaml`:
/// `..<timestamp>/manifests.yaml` holds the data, `..data` links to that directory and
/// `manifests.yaml` links to `..data/manifests.yaml`.
class config_map_volume {
public:
  explicit config_map_volume(const std::string& content) : dir_(test::temp_dir() + "/cm") {
    auto first = write_version(content);
    fs::create_directory_symlink(first, dir_ + "/..data");
    fs::create_symlink("..data/manifests.yaml", dir_ + "/manifests.yaml");
    current_ = first;
  }

  /// Updates the content as the kubelet does: a new timestamped directory, a new `..data`
  /// link renamed over the old one, then the old directory removed.
  void update(const std::string& content) {
    auto next = write_version(content);
    fs::create_directory_symlink(next, dir_ + "/..data_tmp");
    fs::rename(dir_ + "/..data_tmp", dir_ + "/..data");
    fs::remove_all(dir_ + "/" + current_);
    current_ = next;
  }

  const std::string& path() const { return dir_; }

private:
  std::string write_version(const std::string& content) {
    auto name = fmt::format("..2026_12_01_22_00_00.{:09}", ++versions_);
    test::write_file(dir_ + "/" + name + "/manifests.yaml", content);
    return name;
  }

  std::string dir_;
  std::string current_;
  int versions_ = 0;
};

/// A Sensor `name` with a log trigger on hooks/example.
std::string log_sensor(const std::string& name) {
  return e2e::hook_sensor("    - template:\n        name: log\n        log: {}\n", name);
}

/// How often `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

} // namespace

TEST(e2e_config_map, a_mounted_config_map_loads_once_and_reloads_on_the_data_swap) {
  auto port = test::free_port();
  auto hooks = e2e::webhook_source("hooks", port, {"example"});
  config_map_volume volume{hooks + log_sensor("s")};

  test::child_process validate{{GANGLION_BINARY, "validate", "-f", volume.path()}};
  ASSERT_EQ(validate.wait(20s), 0) << validate.output();
  EXPECT_NE(validate.output().find("2 document(s), 2 Argo object(s): 0 error(s)"),
            std::string::npos)
    << validate.output();

  auto admin_port = test::free_port();
  auto admin = [&](const std::string& path) {
    return test::http_request("GET", fmt::format("http://127.0.0.1:{}{}", admin_port, path));
  };
  test::child_process run{{GANGLION_BINARY, "run", "-f", volume.path(), "--admin",
                           fmt::format("127.0.0.1:{}", admin_port), "--webhook-host",
                           "127.0.0.1", "--data-dir", test::temp_dir() + "/data"}};
  ASSERT_TRUE(test::wait_http_ok(fmt::format("http://127.0.0.1:{}/ready", admin_port), 20s))
    << run.output();
  auto status = admin("/v1/status").body;
  EXPECT_EQ(occurrences(status, "\"name\": \"s\","), 1u) << status;

  volume.update(hooks + log_sensor("s") + log_sensor("t"));
  EXPECT_TRUE(test::eventually(
    [&] { return admin("/v1/status").body.find("\"name\": \"t\",") != std::string::npos; }, 20s))
    << run.output();
  status = admin("/v1/status").body;
  EXPECT_EQ(occurrences(status, "\"name\": \"s\","), 1u) << status;
  EXPECT_EQ(occurrences(status, "\"name\": \"t\","), 1u) << status;
  EXPECT_NE(status.find("\"errors\": []"), std::string::npos) << status;

  // A duplicate is refused like any other error: the running set stays.
  volume.update(hooks + log_sensor("s") + log_sensor("s"));
  EXPECT_TRUE(test::eventually(
    [&] { return admin("/v1/status").body.find("defined twice") != std::string::npos; }, 20s))
    << run.output();
  status = admin("/v1/status").body;
  EXPECT_NE(status.find("manifests.yaml:29:3"), std::string::npos) << status;
  EXPECT_EQ(occurrences(status, "\"name\": \"t\","), 1u) << status;
}

TEST(e2e_config_map, run_refuses_two_objects_with_one_name) {
  auto dir = test::temp_dir();
  auto hooks = e2e::webhook_source("hooks", test::free_port(), {"example"});
  test::write_file(dir + "/a.yaml", hooks + log_sensor("s"));
  test::write_file(dir + "/b.yaml", log_sensor("s"));
  test::child_process run{{GANGLION_BINARY, "run", "-f", dir, "--data-dir", dir + "/data"}};
  EXPECT_EQ(run.wait(20s), 1) << run.output();
  EXPECT_NE(run.output().find(dir + "/b.yaml:5:3: metadata.name: Sensor \"s\" is defined twice: "
                                    "here and at " + dir + "/a.yaml:15:3"),
            std::string::npos)
    << run.output();
}

TEST(e2e_config_map, validate_refuses_a_billion_laughs_at_the_alias) {
  std::string bomb = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: &a [x,x,x,x,x,x,x,x,x,x]\n";
  for (char level = 'b'; level <= 'i'; ++level)
    bomb += fmt::format("  {0}: &{0} [*{1},*{1},*{1},*{1},*{1},*{1},*{1},*{1},*{1},*{1}]\n",
                        level, static_cast<char>(level - 1));
  auto dir = test::temp_dir();
  test::write_file(dir + "/bomb.yaml", bomb);
  test::child_process validate{{GANGLION_BINARY, "validate", "-f", dir + "/bomb.yaml"}};
  EXPECT_EQ(validate.wait(20s), 1) << validate.output();
  EXPECT_NE(validate.output().find(dir + "/bomb.yaml:9:"), std::string::npos)
    << validate.output();
  EXPECT_NE(validate.output().find("alias expansion exceeds 1000000 nodes (alias *e)"),
            std::string::npos)
    << validate.output();
}
