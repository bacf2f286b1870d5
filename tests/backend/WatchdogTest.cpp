// support/Watchdog.h: a watch closed within its limits leaves the process
// alone; one whose time is up, or whose process holds more memory than it
// allows, writes its message and ends the process with status 1 (seen from
// a parent, on a child that would otherwise sleep or allocate and exit 0);
// residentBytes counts memory as it is touched.
#include "support/Watchdog.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using twintile::support::residentBytes;
using twintile::support::Watchdog;

namespace {

struct Ended {
  int status = -1;
  std::string stderrText;
};

/// Runs `work` in a child whose standard error is captured.
template <class Work> Ended inChild(Work work) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    work();
    ::_exit(0);
  }
  ::close(fds[1]);
  Ended e;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) e.stderrText.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  e.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return e;
}

} // namespace

TEST_CASE("watchdog: resident memory grows as memory is touched", "[support]") {
  size_t before = residentBytes();
  REQUIRE(before > 0);
  std::vector<char> touched(64 << 20);
  std::memset(touched.data(), 1, touched.size());
  CHECK(residentBytes() >= before + (32u << 20));
  CHECK(touched[12345] == 1);
}

TEST_CASE("watchdog: a watch closed in time leaves the process alone", "[support]") {
  Ended e = inChild([] {
    { Watchdog watch(30, 0, "over time\n", "over memory\n"); }
    { Watchdog none(0, 0, "never\n", "never\n"); }
  });
  CHECK(e.status == 0);
  CHECK(e.stderrText.empty());
}

TEST_CASE("watchdog: past its time, the process ends with the message", "[support]") {
  Ended e = inChild([] {
    Watchdog watch(0.2, 0, "over time\n", "over memory\n");
    ::sleep(20);
  });
  CHECK(e.status == 1);
  CHECK(e.stderrText == "over time\n");
}

TEST_CASE("watchdog: above its memory, the process ends with the message", "[support]") {
  Ended e = inChild([] {
    Watchdog watch(0, residentBytes() + (64u << 20), "over time\n", "over memory\n");
    std::vector<std::vector<char>> held;
    for (int i = 0; i < 64; ++i) {  // 1 GiB at most, 16 MiB at a time
      held.emplace_back(16u << 20, char(1));
      ::usleep(20000);
    }
  });
  CHECK(e.status == 1);
  CHECK(e.stderrText == "over memory\n");
}
