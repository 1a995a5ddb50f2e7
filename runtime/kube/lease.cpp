// Leases as locks (see lease.h).
#include "runtime/kube/lease.h"

#include <utility>

namespace mkq::kube {

namespace {

std::string string_at(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<base::TimePoint> time_at(const Json& object, const char* key) {
  const std::string text = string_at(object, key);
  if (text.empty()) return std::nullopt;
  return base::parse_rfc3339(text);
}

}  // namespace

ResourceType lease_type() { return ResourceType{"coordination.k8s.io", "v1", "Lease", "leases", true}; }

std::optional<base::TimePoint> LeaseRecord::expires() const {
  if (holder.empty()) return std::nullopt;
  const std::optional<base::TimePoint> from = renewed ? renewed : acquired;
  if (!from) return std::nullopt;
  return *from + duration;
}

bool LeaseRecord::held_at(base::TimePoint now) const {
  const std::optional<base::TimePoint> until = expires();
  return until && now < *until;
}

LeaseRecord lease_record_of(const Json& object) {
  LeaseRecord record;
  const Json metadata = object.is_object() && object.contains("metadata") ? object["metadata"] : Json::object();
  record.namespace_name = string_at(metadata, "namespace");
  record.name = string_at(metadata, "name");
  record.resource_version = string_at(metadata, "resourceVersion");
  if (metadata.is_object() && metadata.contains("annotations") && metadata["annotations"].is_object()) {
    for (const auto& [key, value] : metadata["annotations"].items()) {
      if (value.is_string()) record.annotations[key] = value.get<std::string>();
    }
  }
  const Json spec = object.is_object() && object.contains("spec") ? object["spec"] : Json::object();
  record.holder = string_at(spec, "holderIdentity");
  if (spec.is_object() && spec.contains("leaseDurationSeconds") && spec["leaseDurationSeconds"].is_number_integer()) {
    record.duration = std::chrono::seconds(spec["leaseDurationSeconds"].get<long long>());
  }
  if (spec.is_object() && spec.contains("leaseTransitions") && spec["leaseTransitions"].is_number_integer()) {
    record.transitions = spec["leaseTransitions"].get<int>();
  }
  record.acquired = time_at(spec, "acquireTime");
  record.renewed = time_at(spec, "renewTime");
  return record;
}

Lease::Lease(Client& client, LeaseOptions options, const base::Clock& clock)
    : client_(client), options_(std::move(options)), clock_(clock) {}

Result<std::optional<LeaseRecord>> Lease::read() {
  Result<Json> got = client_.get(lease_type(), options_.namespace_name, options_.name);
  if (!got) {
    if (got.error().not_found()) return std::optional<LeaseRecord>();
    return got.error();
  }
  return std::optional<LeaseRecord>(lease_record_of(got.value()));
}

// The Lease this identity writes: held by it from now, keeping the acquire
// time of a renewal and counting a change of holder as a transition.
Json Lease::document(const std::optional<LeaseRecord>& existing, bool keep_acquired) const {
  const std::string now = base::format_micro_time(clock_.now());
  Json metadata = {{"name", options_.name}, {"namespace", options_.namespace_name}};
  if (existing) metadata["resourceVersion"] = existing->resource_version;
  if (!options_.annotations.empty()) {
    Json annotations = Json::object();
    for (const auto& [key, value] : options_.annotations) annotations[key] = value;
    metadata["annotations"] = annotations;
  }
  int transitions = existing ? existing->transitions : 0;
  if (existing && existing->holder != options_.identity) ++transitions;
  std::string acquired = now;
  if (keep_acquired && existing && existing->acquired) acquired = base::format_micro_time(*existing->acquired);
  return Json{{"apiVersion", "coordination.k8s.io/v1"},
              {"kind", "Lease"},
              {"metadata", metadata},
              {"spec",
               {{"holderIdentity", options_.identity},
                {"leaseDurationSeconds", options_.duration.count()},
                {"acquireTime", acquired},
                {"renewTime", now},
                {"leaseTransitions", transitions}}}};
}

// Writes the lease; a lost race reads the winner and reports it.
Result<LeaseAttempt> Lease::write(const Json& object, bool create, LeaseOutcome outcome, LeaseRecord before) {
  Result<Json> written = create ? client_.create(lease_type(), object) : client_.update(lease_type(), object);
  if (!written) {
    if (!written.error().conflict()) return written.error();
    Result<std::optional<LeaseRecord>> now = read();
    if (!now) return now.error();
    LeaseAttempt lost;
    if (now.value()) lost.record = *now.value();
    return lost;
  }
  LeaseAttempt attempt;
  attempt.outcome = outcome;
  attempt.record = outcome == LeaseOutcome::TookOver ? std::move(before) : lease_record_of(written.value());
  return attempt;
}

Result<LeaseAttempt> Lease::try_acquire() {
  Result<std::optional<LeaseRecord>> current = read();
  if (!current) return current.error();
  const std::optional<LeaseRecord>& existing = current.value();
  if (!existing) return write(document(std::nullopt, false), true, LeaseOutcome::Acquired, {});
  if (existing->holder == options_.identity) {
    return write(document(existing, true), false, LeaseOutcome::Renewed, *existing);
  }
  if (existing->held_at(clock_.now())) {
    LeaseAttempt held;
    held.record = *existing;
    return held;
  }
  const LeaseOutcome outcome = existing->holder.empty() ? LeaseOutcome::Acquired : LeaseOutcome::TookOver;
  return write(document(existing, false), false, outcome, *existing);
}

Result<void> Lease::renew() {
  Result<std::optional<LeaseRecord>> current = read();
  if (!current) return current.error();
  const std::optional<LeaseRecord>& existing = current.value();
  if (!existing || existing->holder != options_.identity) {
    const std::string holder = existing && !existing->holder.empty() ? existing->holder : "nobody";
    return Error{409, "Conflict",
                 "lease " + options_.namespace_name + "/" + options_.name + " is no longer held by " +
                     options_.identity + " (holder: " + holder + ")",
                 Json()};
  }
  Result<Json> written = client_.update(lease_type(), document(existing, true));
  if (!written) return written.error();
  return {};
}

Result<void> Lease::release() {
  Result<std::optional<LeaseRecord>> current = read();
  if (!current) return current.error();
  const std::optional<LeaseRecord>& existing = current.value();
  if (!existing || existing->holder != options_.identity) return {};
  Json object = document(existing, true);
  object["spec"]["holderIdentity"] = "";
  object["spec"]["leaseDurationSeconds"] = 1;
  Result<Json> written = client_.update(lease_type(), object);
  if (!written) return written.error();
  return {};
}

}  // namespace mkq::kube
