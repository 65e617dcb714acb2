#include "child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ganglion::test {

namespace {

std::vector<std::string> merged_environment(
  const std::vector<std::pair<std::string, std::string>>& extra) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry{*e};
    auto eq = entry.find('=');
    if (eq != std::string::npos)
      env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : extra)
    env[name] = value;
  std::vector<std::string> result;
  for (const auto& [name, value] : env)
    result.push_back(name + "=" + value);
  return result;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (auto& s : strings)
    result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

} // namespace

child_process::child_process(std::vector<std::string> argv,
                             std::vector<std::pair<std::string, std::string>> extra_env) {
  if (argv.empty())
    throw std::runtime_error("child_process: empty argv");
  std::string path = "/tmp/ganglion-child-XXXXXX";
  int fd = ::mkstemp(path.data());
  if (fd < 0)
    throw std::runtime_error(std::string("child_process: mkstemp failed: ") + std::strerror(errno));
  output_path_ = path;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fd, STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fd);

  auto env = merged_environment(extra_env);
  auto envp = pointers(env);
  auto args = pointers(argv);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argv.front().c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fd);
  if (rc != 0) {
    ::unlink(output_path_.c_str());
    throw std::runtime_error("child_process: cannot start " + argv.front() + ": " +
                             std::strerror(rc));
  }
  pid_ = pid;
}

child_process::~child_process() {
  if (!exit_code_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  ::unlink(output_path_.c_str());
}

int child_process::pid() const {
  return pid_;
}

void child_process::signal(int sig) {
  if (!exit_code_ && pid_ > 0)
    ::kill(pid_, sig);
}

bool child_process::reap(bool block) {
  if (exit_code_)
    return true;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r < 0) {
    exit_code_ = -1;
    return true;
  }
  if (r != pid_)
    return false;
  if (WIFEXITED(status))
    exit_code_ = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    exit_code_ = 128 + WTERMSIG(status);
  else
    exit_code_ = -1;
  return true;
}

std::optional<int> child_process::wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!reap(false)) {
    if (std::chrono::steady_clock::now() >= deadline)
      return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds{10});
  }
  return exit_code_;
}

bool child_process::running() {
  return !reap(false);
}

std::string child_process::output() const {
  std::ifstream in{output_path_, std::ios::binary};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

} // namespace ganglion::test
