// A NATS `auth.credential` creds file: the mounted file with --secrets-dir, a private copy of
// the object's namespace's Secret in cluster mode (cnats reads the file at each connect).

#include <fstream>
#include <iterator>
#include <optional>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "client/connection.hpp"
#include "files.hpp"
#include "ganglion/core/secret_files.hpp"

namespace ganglion::nats {
namespace {

std::string content_of(const std::string& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>{in}, {}};
}

auth_spec creds_auth() {
  auth_spec auth;
  auth.credential = dsl::secret_key_selector{"nats-creds", "user.creds"};
  return auth;
}

TEST(nats_credentials, a_creds_file_from_a_secrets_dir_is_the_mounted_file) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/nats-creds/user.creds", "-----BEGIN NATS USER JWT-----\n");
  core::secret_store secrets{dir};
  auto out = resolve_credentials(creds_auth(), &secrets, "nats.auth");
  EXPECT_EQ(out.credentials_file, dir + "/nats-creds/user.creds");
}

TEST(nats_credentials, a_creds_file_from_a_kubernetes_secret_is_a_private_copy_of_its_namespace) {
  core::secret_store root{[](const std::string& ns, const std::string& name,
                             const std::string& key,
                             std::string* error) -> std::optional<std::string> {
                            if (ns == "team-b" && name == "nats-creds" && key == "user.creds")
                              return "jwt of team-b";
                            if (error)
                              *error = "secret " + name + "/" + key + " (namespace " + ns
                                       + "): not found";
                            return std::nullopt;
                          },
                          std::make_shared<core::secret_files>(test::temp_dir())};
  auto secrets = root.for_namespace("team-b");
  auto out = resolve_credentials(creds_auth(), secrets.get(), "nats.auth");
  ASSERT_TRUE(out.credentials_file);
  EXPECT_EQ(content_of(*out.credentials_file), "jwt of team-b\n");
  struct stat st {};
  ASSERT_EQ(::stat(out.credentials_file->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  try {
    resolve_credentials(creds_auth(), root.for_namespace("team-a").get(), "nats.auth");
    FAIL() << "team-a read team-b's Secret";
  } catch (const connection_error& e) {
    EXPECT_NE(std::string{e.what()}.find("nats.auth.credential: secret nats-creds/user.creds "
                                         "(namespace team-a)"),
              std::string::npos)
      << e.what();
  }
}

} // namespace
} // namespace ganglion::nats
