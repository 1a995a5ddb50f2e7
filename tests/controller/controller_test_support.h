// Test support for runtime/controller: the operations' fake fleet
// (tests/operation), a policy watch whose digest a test sets, a log that
// keeps its lines, and the Events the fake manager received.
#pragma once

#include <string>
#include <vector>

#include "runtime/controller/controller.h"
#include "runtime/controller/events.h"
#include "tests/operation/operation_test_support.h"
#include "tests/support/fake_clock.h"

namespace mkq::controller::testing {

class FakeWatch final : public PolicyWatch {
 public:
  std::string value = "v1";
  std::string digest() override { return value; }
};

class FakeLog final : public Log {
 public:
  std::vector<std::string> lines, errors;
  void line(const std::string& text) override { lines.push_back(text); }
  void error(const std::string& text) override { errors.push_back(text); }
};

// "REASON: message" of every Event in the manager's namespace `namespace_name`, oldest first.
inline std::vector<std::string> events_on(kube::FakeClient& manager, const std::string& namespace_name) {
  kube::ListOptions options;
  options.namespace_name = namespace_name;
  const kube::Result<kube::ObjectList> listed = manager.list(EventRecorder::event_type(), options);
  std::vector<std::string> out;
  if (!listed.ok()) return out;
  for (const kube::Json& event : listed.value().items) {
    out.push_back(event.value("reason", "") + ": " + event.value("message", ""));
  }
  return out;
}

}  // namespace mkq::controller::testing
