//===- Files.cpp - reading and writing a whole file, the environment ------===//
#include "support/Files.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace twintile::support {

std::optional<std::string> readFile(const std::filesystem::path &path) {
  // Its size first, then one read into a string of that size (a stream
  // copied through a stringstream grows and copies it again: a millisecond
  // for each precompiled header checked); then on to the end, in case the
  // file grew or has no size (a pipe). A directory fails in read (EISDIR).
  struct Fd {
    int fd;
    ~Fd() {
      if (fd >= 0) ::close(fd);
    }
  } file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};  // closed on every way out, an exception's too
  if (file.fd < 0) return std::nullopt;
  struct stat st {};
  std::string bytes;
  if (::fstat(file.fd, &st) == 0 && S_ISREG(st.st_mode)) bytes.resize(static_cast<size_t>(st.st_size));
  size_t have = 0;
  for (;;) {
    char more[4096];
    bool full = have == bytes.size();
    ssize_t got = full ? ::read(file.fd, more, sizeof more) : ::read(file.fd, bytes.data() + have, bytes.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) break;
    if (full) bytes.append(more, static_cast<size_t>(got));
    have += static_cast<size_t>(got);
  }
  bytes.resize(have);  // a file that shrank while read
  return bytes;
}

bool writeFile(const std::filesystem::path &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return !out.fail();
}

} // namespace twintile::support
