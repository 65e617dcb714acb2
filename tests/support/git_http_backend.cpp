#include "git_http_backend.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ganglion::test {

namespace {

constexpr const char* backend = "/usr/lib/git-core/git-http-backend";

/// A pipe whose ends are closed when still open at destruction.
struct pipe_pair {
  int fd[2] = {-1, -1};
  pipe_pair() {
    if (::pipe2(fd, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string{"pipe: "} + std::strerror(errno));
  }
  ~pipe_pair() {
    close(0);
    close(1);
  }
  void close(int end) {
    if (fd[end] >= 0)
      ::close(fd[end]);
    fd[end] = -1;
  }
};

std::vector<std::string> environment(const std::string& root, const cgi_request& r) {
  std::vector<std::string> env{"GIT_PROJECT_ROOT=" + root,
                               "GIT_HTTP_EXPORT_ALL=1",
                               "GIT_CONFIG_NOSYSTEM=1",
                               "GIT_CONFIG_GLOBAL=/dev/null",
                               "HOME=" + root,
                               "PATH=/usr/bin:/bin",
                               "GATEWAY_INTERFACE=CGI/1.1",
                               "SERVER_PROTOCOL=HTTP/1.1",
                               "REMOTE_ADDR=127.0.0.1",
                               "REQUEST_METHOD=" + r.method,
                               "PATH_INFO=" + r.path_info,
                               "QUERY_STRING=" + r.query,
                               "CONTENT_LENGTH=" + std::to_string(r.body.size())};
  if (!r.content_type.empty())
    env.push_back("CONTENT_TYPE=" + r.content_type);
  if (!r.content_encoding.empty())
    env.push_back("HTTP_CONTENT_ENCODING=" + r.content_encoding);
  if (!r.git_protocol.empty())
    env.push_back("GIT_PROTOCOL=" + r.git_protocol);
  if (!r.remote_user.empty())
    env.push_back("REMOTE_USER=" + r.remote_user);
  return env;
}

/// Splits the CGI output into its header lines and body; `Status:` sets the status.
cgi_response parse_output(const std::string& out) {
  auto end = out.find("\r\n\r\n");
  std::size_t skip = 4;
  if (auto lf = out.find("\n\n"); lf != std::string::npos && (end == std::string::npos || lf < end))
    end = lf, skip = 2;
  if (end == std::string::npos)
    throw std::runtime_error("git-http-backend wrote no CGI header: " + out.substr(0, 200));
  cgi_response response;
  response.body = out.substr(end + skip);
  std::size_t at = 0;
  auto head = out.substr(0, end);
  while (at < head.size()) {
    auto eol = head.find('\n', at);
    auto line = head.substr(at, eol == std::string::npos ? std::string::npos : eol - at);
    at = eol == std::string::npos ? head.size() : eol + 1;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    auto name = line.substr(0, colon);
    auto value = line.substr(line.find_first_not_of(' ', colon + 1));
    if (name == "Status")
      response.status = static_cast<unsigned>(std::stoul(value));
    else
      response.headers.emplace_back(name, value);
  }
  return response;
}

} // namespace

cgi_response run_git_http_backend(const std::string& root, const cgi_request& request) {
  // A child that exits before reading the whole body must not kill the test with SIGPIPE.
  static const bool ignored = ::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
  (void)ignored;
  pipe_pair in;
  pipe_pair out;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  auto env = environment(root, request);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (auto& e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string program = backend;
  char* argv[] = {program.data(), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, backend, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw std::runtime_error(std::string{"cannot start "} + backend + ": " + std::strerror(rc));
  in.close(0);
  out.close(1);
  // The body goes in on its own thread, so that a child answering before it read everything
  // cannot block both sides.
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < request.body.size()) {
      auto n = ::write(in.fd[1], request.body.data() + done, request.body.size() - done);
      if (n <= 0 && errno != EINTR)
        break;
      if (n > 0)
        done += static_cast<std::size_t>(n);
    }
    in.close(1);
  });
  std::string output;
  char chunk[65536];
  for (;;) {
    auto n = ::read(out.fd[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    output.append(chunk, static_cast<std::size_t>(n));
  }
  writer.join();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return parse_output(output);
}

} // namespace ganglion::test
