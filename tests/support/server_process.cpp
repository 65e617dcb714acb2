#include "server_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

#include "eventually.hpp"
#include "files.hpp"

namespace ganglion::test {

bool accepts(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

void wait_until_accepting(child_process& process, const std::vector<std::uint16_t>& ports,
                          const std::string& what, std::chrono::seconds limit) {
  auto all_accept = [&] {
    for (auto port : ports)
      if (!accepts(port))
        return false;
    return true;
  };
  if (!eventually([&] { return all_accept() || !process.running(); }, limit))
    throw std::runtime_error(what + " did not listen within " + std::to_string(limit.count())
                             + " s: " + process.output());
  if (!all_accept())
    throw std::runtime_error(what + " exited at start: " + process.output());
}

void stop_server_process(std::unique_ptr<child_process>& process) {
  if (!process)
    return;
  process->signal(SIGTERM);
  if (!process->wait(std::chrono::seconds(5)))
    process->signal(SIGKILL);
  process->wait(std::chrono::seconds(5));
  process.reset();
}

void write_self_signed_certificate(const std::string& dir) {
  write_file(dir + "/.keep", "");
  child_process openssl{{"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                         dir + "/key.pem", "-out", dir + "/cert.pem", "-days", "1", "-subj",
                         "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"}};
  auto code = openssl.wait(std::chrono::seconds(30));
  if (!code || *code != 0)
    throw std::runtime_error("openssl req failed: " + openssl.output());
}

} // namespace ganglion::test
