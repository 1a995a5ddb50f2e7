// Taking a base::Result apart in a test: its value, or its Error as a reader
// sees it (base::render) -- for tests that check the value and the message of
// the same call. Tests of an Error's fields (reason, address) read it directly.
#pragma once

#include <string>
#include <utility>

#include "base/result.h"

namespace mkq::testing {

// A Result's value (a default one on an Error); *error: the rendered Error, "" on success.
template <class T>
T take(base::Result<T> result, std::string* error) {
  error->clear();
  if (result) return std::move(result.value());
  *error = base::render(result.error());
  return T{};
}

// The same for a call without a value: true when it succeeded.
inline bool take(base::Result<void> result, std::string* error) {
  error->clear();
  if (result) return true;
  *error = base::render(result.error());
  return false;
}

// The same, the value into *out: true when it succeeded.
template <class T>
bool take(base::Result<T> result, T* out, std::string* error) {
  error->clear();
  if (!result) {
    *error = base::render(result.error());
    return false;
  }
  *out = std::move(result.value());
  return true;
}

}  // namespace mkq::testing
