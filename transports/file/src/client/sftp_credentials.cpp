// The sftp source's credentials from its secrets, as Argo's StartListening reads them.

#include <sstream>

#include <fmt/format.h>

#include "client/sftp_client.hpp"

namespace ganglion::file {

namespace {

std::string secret(const std::optional<dsl::secret_key_selector>& selector,
                   const core::secret_store* secrets, const char* what) {
  if (!selector)
    throw sftp_error(fmt::format("{} not found, {} is not set", what, what));
  std::string error;
  auto value = secrets ? secrets->read(selector->name, selector->key, &error) : std::nullopt;
  if (!value)
    throw sftp_error(fmt::format("{} not found, {}", what,
                                 error.empty() ? "no secrets are configured" : error));
  return *value;
}

/// Go's net.SplitHostPort (`host:port`, `[v6]:port`).
std::pair<std::string, int> split_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size())
    throw sftp_error(fmt::format("dialing sftp address {}: missing port in address", address));
  auto host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = 0;
  for (char c : address.substr(colon + 1)) {
    if (c < '0' || c > '9' || port > 65535)
      throw sftp_error(fmt::format("dialing sftp address {}: invalid port", address));
    port = port * 10 + (c - '0');
  }
  if (port > 65535)
    throw sftp_error(fmt::format("dialing sftp address {}: invalid port", address));
  return {host, port};
}

/// The private key block (`-----BEGIN …` to its `-----END …-----` line) of `text`.
std::string private_key_block(const std::string& text) {
  auto begin = text.find("-----BEGIN ");
  if (begin == std::string::npos)
    return {};
  auto end = text.find("-----END ", begin);
  if (end == std::string::npos)
    return {};
  auto close = text.find("-----", end + 9);
  if (close == std::string::npos)
    return {};
  return text.substr(begin, close + 5 - begin) + "\n";
}

bool is_key_type(const std::string& word) {
  return word.rfind("ssh-", 0) == 0 || word.rfind("ecdsa-sha2-", 0) == 0
         || word.rfind("sk-", 0) == 0;
}

/// The first authorized_keys line of `text` (ssh.ParseAuthorizedKey skips what is not one):
/// its key type and base64 key; an options prefix is skipped.
std::optional<std::pair<std::string, std::string>> authorized_key(const std::string& text) {
  std::istringstream lines{text};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words{line};
    std::vector<std::string> w;
    for (std::string word; words >> word && w.size() < 3;)
      w.push_back(word);
    for (std::size_t i = 0; i + 1 < w.size(); ++i)
      if (is_key_type(w[i]))
        return std::pair{w[i], w[i + 1]};
  }
  return std::nullopt;
}

} // namespace

sftp_credentials resolve_credentials(const sftp_event_spec& spec,
                                     const core::secret_store* secrets) {
  sftp_credentials out;
  out.user = secret(spec.username, secrets, "username");
  auto address = secret(spec.address, secrets, "address");
  std::tie(out.host, out.port) = split_address(address);
  if (spec.ssh_key_secret) {
    auto text = secret(spec.ssh_key_secret, secrets, "sshKeySecret");
    out.private_key = private_key_block(text);
    if (out.private_key.empty())
      throw sftp_error("failed to parse private ssh key: no PEM or OpenSSH private key block");
    auto pinned = authorized_key(text);
    if (!pinned)
      throw sftp_error("failed to parse public ssh key: the secret holds no authorized_keys "
                       "line (Argo pins it as the server's host key)");
    std::tie(out.host_key_type, out.host_key_base64) = *pinned;
  } else {
    out.password = secret(spec.password, secrets, "password");
  }
  return out;
}

} // namespace ganglion::file
