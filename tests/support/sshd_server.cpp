#include "sshd_server.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <vector>
#include <csignal>
#include <filesystem>
#include <stdexcept>

#include "files.hpp"
#include "http_sink.hpp"
#include "server_process.hpp"

namespace ganglion::test {

namespace {

const char* const sshd_binary = "/usr/sbin/sshd";

void keygen(const std::string& file) {
  child_process p{{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ganglion-test", "-f",
                   file}};
  if (p.wait(std::chrono::seconds(30)) != 0)
    throw std::runtime_error("ssh-keygen failed: " + p.output());
}

/// The processes below `pid` (sshd's per-connection monitors and sessions), deepest last.
std::vector<int> descendants(int pid) {
  std::vector<int> out{pid};
  for (std::size_t i = 0; i < out.size(); ++i)
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      const auto name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos)
        continue;
      std::string stat;
      try {
        stat = read_file(entry.path().string() + "/stat");
      } catch (const std::exception&) {
        continue;
      }
      // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
      auto close = stat.rfind(')');
      if (close == std::string::npos)
        continue;
      int parent = 0;
      if (std::sscanf(stat.c_str() + close + 1, " %*c %d", &parent) == 1 && parent == out[i])
        out.push_back(std::stoi(name));
    }
  out.erase(out.begin());
  return out;
}

} // namespace

std::string sshd_server::unavailable() {
  if (!std::filesystem::exists(sshd_binary))
    return std::string{sshd_binary} + " is not installed (Debian package openssh-server)";
  // Privilege separation: sshd started by root needs /run/sshd.
  if (::geteuid() == 0 && !std::filesystem::exists("/run/sshd")
      && ::mkdir("/run/sshd", 0755) != 0)
    return "sshd needs its privilege separation directory /run/sshd";
  return {};
}

sshd_server::sshd_server() : dir_(temp_dir()), port_(free_port()) {
  if (auto why = unavailable(); !why.empty())
    throw std::runtime_error(why);
  keygen(dir_ + "/host_key");
  keygen(dir_ + "/client_key");
  std::filesystem::copy_file(dir_ + "/client_key.pub", dir_ + "/authorized_keys");
  write_file(dir_ + "/sshd_config",
             "Port " + std::to_string(port_) + "\nListenAddress 127.0.0.1\n"
             "HostKey " + dir_ + "/host_key\n"
             "PidFile " + dir_ + "/sshd.pid\n"
             "AuthorizedKeysFile " + dir_ + "/authorized_keys\n"
             "PubkeyAuthentication yes\nPasswordAuthentication yes\n"
             "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
             "PermitRootLogin yes\nSubsystem sftp internal-sftp\nLogLevel ERROR\n");
  start();
}

sshd_server::~sshd_server() {
  stop();
}

std::string sshd_server::address() const {
  return "127.0.0.1:" + std::to_string(port_);
}

std::string sshd_server::user() {
  const auto* entry = ::getpwuid(::geteuid());
  return entry ? entry->pw_name : "root";
}

std::string sshd_server::client_key() const {
  return read_file(dir_ + "/client_key");
}

std::string sshd_server::host_public_key() const {
  return read_file(dir_ + "/host_key.pub");
}

void sshd_server::start() {
  process_ = std::make_unique<child_process>(
    std::vector<std::string>{sshd_binary, "-D", "-e", "-f", dir_ + "/sshd_config"});
  wait_until_accepting(*process_, port_, "sshd");
}

void sshd_server::stop() {
  if (!process_)
    return;
  // The listener's children serve the open sessions: a stopped server ends them too.
  for (int child : descendants(process_->pid()))
    ::kill(child, SIGKILL);
  stop_server_process(process_);
}

std::string sshd_server::output() const {
  return process_ ? process_->output() : std::string{};
}

} // namespace ganglion::test
