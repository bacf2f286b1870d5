// An environment variable set for a scope (tests that point twintile at the
// stand-in CUDA driver, or at a cache of their own).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace twintile::test {

struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const std::string &name, const std::string &value) : name(name) {
    if (const char *v = std::getenv(name.c_str())) old = v;
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old) setenv(name.c_str(), old->c_str(), 1);
    else unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
};

} // namespace twintile::test
