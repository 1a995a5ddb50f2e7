#include "runtime/controller/events.h"

#include <fmt/format.h>

#include "base/host.h"
#include "base/time.h"

namespace mkq::controller {

namespace {

constexpr const char* kComponent = "mkq-controller";
constexpr std::size_t kMessageLimit = 1024;  // what the API server accepts of Event.message

}  // namespace

EventRecorder::EventRecorder(kube::Client* client, const LeaderOptions& lease, const std::string& identity,
                             const base::Clock& clock, Log& log)
    : client_(client), lease_(lease), identity_(identity), clock_(clock), log_(log) {}

const kube::ResourceType& EventRecorder::event_type() {
  static const kube::ResourceType type{"", "v1", "Event", "events", true};
  return type;
}

void EventRecorder::record(const char* type, const std::string& reason, const std::string& message) {
  if (client_ == nullptr) return;
  const auto now = clock_.now();
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  const std::string name_suffix =
      fmt::format(".{:x}{:02x}", static_cast<unsigned long long>(nanos), ++sequence_ & 0xffu);
  std::string text = message;
  if (text.size() > kMessageLimit) text = text.substr(0, kMessageLimit - 3) + "...";
  const std::string stamp = base::format_rfc3339(now);
  const kube::Json event = {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", lease_.name + name_suffix}, {"namespace", lease_.namespace_name}}},
      {"involvedObject",
       {{"apiVersion", "coordination.k8s.io/v1"},
        {"kind", "Lease"},
        {"namespace", lease_.namespace_name},
        {"name", lease_.name}}},
      {"reason", reason},
      {"message", text},
      {"type", type},
      {"source", {{"component", kComponent}, {"host", base::host_name()}}},
      {"firstTimestamp", stamp},
      {"lastTimestamp", stamp},
      {"count", 1},
      {"reportingComponent", kComponent},
      {"reportingInstance", identity_},
  };
  const kube::Result<kube::Json> created = client_->create(event_type(), event);
  if (!created.ok()) log_.error("could not record the event " + reason + ": " + created.error().message);
}

}  // namespace mkq::controller
