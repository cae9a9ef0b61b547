#include "reports/child_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "reports/atomic_file.hpp"

namespace gputco {

namespace {

// The exit status of a child whose `write` threw: its message is on the pipe.
constexpr int kChildThrew = 3;

// Writes all of `text` to `fd`, ignoring failures (the parent then reports the exit alone).
void write_all(int fd, const std::string& text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

[[noreturn]] void child(int fd, const std::function<void()>& write) {
  int status = 0;
  try {
    write();
  } catch (const ReportError& e) {
    write_all(fd, e.reason());
    status = kChildThrew;
  } catch (const std::bad_alloc&) {
    write_all(fd, "out of memory");
    status = kChildThrew;
  } catch (const std::exception& e) {
    write_all(fd, e.what());
    status = kChildThrew;
  } catch (...) {
    write_all(fd, "an unknown error");
    status = kChildThrew;
  }
  ::close(fd);
  ::_exit(status);
}

}  // namespace

void run_in_child_process(const std::string& path, const std::string& what,
                          const std::function<void()>& write) {
  int fds[2];
  if (::pipe(fds) != 0) {
    throw ReportError(path, "out of memory (cannot start " + what + ": " +
                                std::strerror(errno) + ")");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw ReportError(path, "out of memory (cannot start " + what + ": " +
                                std::strerror(error) + ")");
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], write);
  }
  ::close(fds[1]);
  std::string message;
  char buffer[512];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (message.size() < 4096) message.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw ReportError(path, "lost " + what + ": " + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildThrew) {
    throw ReportError(path, message);
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    throw ReportError(path, "out of memory? " + what + " died of signal " + std::to_string(signal) +
                                " (" + ::strsignal(signal) +
                                "), as it does when an allocation fails; free memory or raise "
                                "the limit (ulimit -v) and run again");
  }
  throw ReportError(path, what + " ended with exit status " +
                              std::to_string(WEXITSTATUS(status)));
}

}  // namespace gputco
