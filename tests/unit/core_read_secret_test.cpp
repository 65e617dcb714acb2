// The secret a manifest field names, read for a transport: the value or a file holding it, and
// one wording for every failure, thrown as the caller's own exception type.

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "files.hpp"
#include "ganglion/core/read_secret.hpp"

namespace ganglion::core {
namespace {

/// A transport's own error type.
struct kind_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string message_of(const secret_store* secrets, const dsl::secret_key_selector& ref) {
  try {
    read_secret_or_throw<kind_error>(secrets, ref, "x.tls.caCertSecret");
  } catch (const kind_error& e) {
    return e.what();
  }
  return "no kind_error";
}

TEST(read_secret, reads_the_value_or_the_file_holding_it) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/tls/ca", "pem\n");
  secret_store secrets{dir};
  dsl::secret_key_selector ref{"tls", "ca"};
  EXPECT_EQ(read_secret_or_throw<kind_error>(&secrets, ref, "f"), "pem");
  EXPECT_EQ(read_secret_or_throw<kind_error>(&secrets, ref, "f", secret_form::file),
            dir + "/tls/ca");
  std::string error = "untouched";
  EXPECT_EQ(try_read_secret(&secrets, ref, "f", &error), "pem");
  EXPECT_EQ(error, "untouched");
}

TEST(read_secret, failures_name_the_field_and_why) {
  dsl::secret_key_selector ref{"tls", "ca"};
  EXPECT_EQ(message_of(nullptr, ref),
            "x.tls.caCertSecret: secret tls/ca is needed but no secret store is configured");
  auto dir = test::temp_dir();
  secret_store secrets{dir};
  EXPECT_EQ(message_of(&secrets, ref),
            "x.tls.caCertSecret: cannot read secret file " + dir + "/tls/ca");
  std::string error;
  EXPECT_FALSE(try_read_secret(&secrets, ref, "f", &error, secret_form::file));
  EXPECT_EQ(error, "f: cannot read secret file " + dir + "/tls/ca");
}

} // namespace
} // namespace ganglion::core
