// An SFTP session over libssh (blocking calls, each bounded by the session timeout).

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fmt/format.h>

#include "client/sftp_client.hpp"

namespace ganglion::file {

struct sftp_session::handles {
  ssh_session ssh = nullptr;
  sftp_session_struct* sftp = nullptr;

  ~handles() {
    if (sftp)
      sftp_free(sftp);
    if (ssh) {
      if (ssh_is_connected(ssh))
        ssh_disconnect(ssh);
      ssh_free(ssh);
    }
  }
};

namespace {

[[noreturn]] void fail(ssh_session ssh, const std::string& what) {
  throw sftp_error(fmt::format("{}: {}", what, ssh_get_error(ssh)));
}

/// ssh.FixedHostKey: the server's key must be the pinned one.
void check_host_key(ssh_session ssh, const sftp_credentials& c) {
  ssh_key pinned = nullptr;
  if (ssh_pki_import_pubkey_base64(c.host_key_base64.c_str(),
                                   ssh_key_type_from_name(c.host_key_type.c_str()), &pinned)
      != SSH_OK)
    throw sftp_error("failed to parse public ssh key " + c.host_key_type);
  ssh_key offered = nullptr;
  if (ssh_get_server_publickey(ssh, &offered) != SSH_OK) {
    ssh_key_free(pinned);
    fail(ssh, "no host key from the server");
  }
  bool same = ssh_key_cmp(pinned, offered, SSH_KEY_CMP_PUBLIC) == 0;
  ssh_key_free(pinned);
  ssh_key_free(offered);
  if (!same)
    throw sftp_error("ssh: handshake failed: ssh: host key mismatch");
}

void authenticate(ssh_session ssh, const sftp_credentials& c) {
  int rc = SSH_AUTH_DENIED;
  if (c.password) {
    rc = ssh_userauth_password(ssh, nullptr, c.password->c_str());
  } else {
    ssh_key key = nullptr;
    if (ssh_pki_import_privkey_base64(c.private_key.c_str(), nullptr, nullptr, nullptr, &key)
        != SSH_OK)
      throw sftp_error("failed to parse private ssh key");
    rc = ssh_userauth_publickey(ssh, nullptr, key);
    ssh_key_free(key);
  }
  if (rc != SSH_AUTH_SUCCESS)
    throw sftp_error(fmt::format("ssh: unable to authenticate as {}{}", c.user,
                                 rc == SSH_AUTH_ERROR ? std::string{": "} + ssh_get_error(ssh)
                                                      : std::string{}));
}

} // namespace

sftp_session::sftp_session(const sftp_credentials& c, std::chrono::milliseconds timeout)
  : handles_(std::make_unique<handles>()) {
  auto* ssh = handles_->ssh = ssh_new();
  if (!ssh)
    throw sftp_error("cannot create an ssh session");
  long seconds = std::max<long>(1, static_cast<long>(timeout.count() / 1000));
  long micros = static_cast<long>(timeout.count() % 1000) * 1000;
  unsigned port = static_cast<unsigned>(c.port);
  int no = 0;
  ssh_options_set(ssh, SSH_OPTIONS_HOST, c.host.c_str());
  ssh_options_set(ssh, SSH_OPTIONS_PORT, &port);
  ssh_options_set(ssh, SSH_OPTIONS_USER, c.user.c_str());
  ssh_options_set(ssh, SSH_OPTIONS_TIMEOUT, &seconds);
  ssh_options_set(ssh, SSH_OPTIONS_TIMEOUT_USEC, &micros);
  ssh_options_set(ssh, SSH_OPTIONS_PROCESS_CONFIG, &no); // no ~/.ssh/config, as Go's client
  auto where = fmt::format("dialing sftp address {}:{}", c.host, c.port);
  if (ssh_connect(ssh) != SSH_OK)
    fail(ssh, where);
  if (!c.password)
    check_host_key(ssh, c);
  authenticate(ssh, c);
  handles_->sftp = sftp_new(ssh);
  if (!handles_->sftp)
    fail(ssh, "new sftp client");
  if (sftp_init(handles_->sftp) != SSH_OK)
    fail(ssh, "new sftp client");
}

sftp_session::~sftp_session() = default;

std::vector<remote_file> sftp_session::list_files(const std::string& directory) {
  auto* ssh = handles_->ssh;
  auto* dir = sftp_opendir(handles_->sftp, directory.c_str());
  if (!dir)
    throw sftp_error(fmt::format("open {}: {} (sftp error {})", directory, ssh_get_error(ssh),
                                 sftp_get_error(handles_->sftp)));
  std::vector<remote_file> out;
  while (auto* attributes = sftp_readdir(handles_->sftp, dir)) {
    if (attributes->type != SSH_FILEXFER_TYPE_DIRECTORY && attributes->name)
      out.push_back({attributes->name, attributes->size, attributes->mtime});
    sftp_attributes_free(attributes);
  }
  bool complete = sftp_dir_eof(dir) != 0;
  sftp_closedir(dir);
  if (!complete)
    throw sftp_error(fmt::format("read {}: {}", directory, ssh_get_error(ssh)));
  return out;
}

} // namespace ganglion::file
