// Secrets a consumer reads from a path (an SSH key, a NATS creds file) in cluster mode: each is
// written to a 0600 file in a 0700 directory, rewritten when its value changes, kept apart per
// namespace, and removed with the store.

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "files.hpp"
#include "ganglion/core/secret_files.hpp"
#include "ganglion/core/secrets.hpp"

namespace ganglion::core {
namespace {

namespace fs = std::filesystem;

std::string content_of(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(secret_files, writes_a_private_file_and_rewrites_it_when_the_value_changes) {
  auto parent = test::temp_dir();
  std::string dir;
  {
    secret_files files{parent};
    EXPECT_TRUE(files.dir().empty()); // nothing is made before it is needed
    auto path = files.write("team-a", "git-key", "ssh", "-----BEGIN KEY-----\nabc");
    dir = files.dir();
    EXPECT_EQ(fs::path{dir}.parent_path(), fs::path{parent});
    EXPECT_EQ(mode_of(dir), 0700u);
    EXPECT_EQ(mode_of(path), 0600u);
    EXPECT_EQ(content_of(path), "-----BEGIN KEY-----\nabc\n");

    EXPECT_EQ(files.write("team-a", "git-key", "ssh", "second\n"), path);
    EXPECT_EQ(content_of(path), "second\n");
    EXPECT_EQ(mode_of(path), 0600u);

    auto other = files.write("team-b", "git-key", "ssh", "of b");
    EXPECT_NE(other, path);
    EXPECT_EQ(content_of(other), "of b\n");
    EXPECT_EQ(content_of(path), "second\n");
  }
  EXPECT_FALSE(fs::exists(dir)); // removed with the store
}

TEST(secret_files, refuses_a_name_that_leaves_its_directory) {
  secret_files files{test::temp_dir()};
  EXPECT_THROW(files.write("..", "n", "k", "v"), std::runtime_error);
  EXPECT_THROW(files.write("ns", "a/b", "k", "v"), std::runtime_error);
  EXPECT_THROW(files.write("ns", "n", ".", "v"), std::runtime_error);
}

TEST(secret_store, a_backend_store_reads_and_writes_files_in_the_namespace_it_is_bound_to) {
  std::map<std::string, std::string> values{{"a/creds/file", "of a"}, {"b/creds/file", "of b"}};
  secret_store::lookup backend = [&values](const std::string& ns, const std::string& name,
                                           const std::string& key,
                                           std::string* error) -> std::optional<std::string> {
    auto it = values.find(ns + "/" + name + "/" + key);
    if (it != values.end())
      return it->second;
    if (error)
      *error = "secret " + name + "/" + key + " (namespace " + ns + "): not found";
    return std::nullopt;
  };
  auto files = std::make_shared<secret_files>(test::temp_dir());
  secret_store root{backend, files};
  auto a = root.for_namespace("a");
  auto b = root.for_namespace("b");
  EXPECT_EQ(a->read("creds", "file"), "of a");
  EXPECT_EQ(b->read("creds", "file"), "of b");
  std::string error;
  EXPECT_FALSE(root.for_namespace("c")->read("creds", "file", &error));
  EXPECT_NE(error.find("namespace c"), std::string::npos) << error;

  auto path_a = a->file("creds", "file");
  auto path_b = b->file("creds", "file");
  ASSERT_TRUE(path_a && path_b);
  EXPECT_EQ(content_of(*path_a), "of a\n");
  EXPECT_EQ(content_of(*path_b), "of b\n");

  // A changed Secret: rewritten by the backend's refresh, before any new use.
  values["a/creds/file"] = "new of a";
  files->refresh(backend);
  EXPECT_EQ(content_of(*path_a), "new of a\n");
  EXPECT_EQ(content_of(*path_b), "of b\n");
}

TEST(secret_store, a_directory_store_hands_out_the_mounted_file_whatever_the_namespace) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/creds/file", "mounted\n");
  secret_store store{dir};
  auto path = store.for_namespace("any")->file("creds", "file");
  ASSERT_TRUE(path);
  EXPECT_EQ(*path, dir + "/creds/file");
  std::string error;
  EXPECT_FALSE(store.file("creds", "absent", &error));
  EXPECT_NE(error.find(dir + "/creds/absent"), std::string::npos) << error;
}

TEST(secret_store, a_secret_file_over_1_mib_is_refused_with_its_path) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/big/key", std::string((std::size_t{1} << 20) + 1, 'x'));
  test::write_file(dir + "/fits/key", std::string(std::size_t{1} << 20, 'x'));
  secret_store store{dir};
  std::string error;
  EXPECT_FALSE(store.read("big", "key", &error));
  EXPECT_NE(error.find(dir + "/big/key is larger than 1 MiB"), std::string::npos) << error;
  auto fits = store.read("fits", "key", &error);
  ASSERT_TRUE(fits) << error;
  EXPECT_EQ(fits->size(), std::size_t{1} << 20);
}

} // namespace
} // namespace ganglion::core
