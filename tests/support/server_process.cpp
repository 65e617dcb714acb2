#include "server_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>

#include "files.hpp"

namespace ganglion::test {

bool accepts_on_loopback(std::uint16_t port) {
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

void wait_listening(child_process& process, std::uint16_t port, const std::string& what) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (!accepts_on_loopback(port)) {
    if (!process.running())
      throw std::runtime_error(what + " exited at start: " + process.output());
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error(what + " did not listen within 15 s: " + process.output());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void stop_process(std::unique_ptr<child_process>& process) {
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
    throw std::runtime_error("openssl could not make a certificate: " + openssl.output());
}

} // namespace ganglion::test
