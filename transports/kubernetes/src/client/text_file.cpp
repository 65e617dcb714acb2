#include "client/text_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ganglion::kubernetes::detail {

std::optional<std::string> read_text_file(const std::string& path, std::string& why) {
  auto fail = [&](int error) -> std::optional<std::string> {
    why = "cannot read " + path + ": " + std::strerror(error);
    return std::nullopt;
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(errno);
  std::string content;
  char buffer[8192];
  for (;;) {
    auto n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      return fail(error);
    }
    if (n == 0)
      break;
    content.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return content;
}

bool is_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string trimmed(std::string text) {
  constexpr const char* space = " \t\r\n";
  auto end = text.find_last_not_of(space);
  if (end == std::string::npos)
    return {};
  text.erase(end + 1);
  text.erase(0, text.find_first_not_of(space));
  return text;
}

} // namespace ganglion::kubernetes::detail
