// RFC 3339 times, the one spelling of a time in mkq's state, annotations and
// messages: "2026-12-21T10:00:00Z". Whole seconds; formatting is UTC unless a
// function says local.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::base {

using TimePoint = std::chrono::system_clock::time_point;

// "2026-12-21T10:00:00Z" (UTC, whole seconds).
std::string format_rfc3339(TimePoint time);
// "2026-12-21T10:00:00.123456Z" (UTC, microseconds): Kubernetes' MicroTime,
// the spelling of a Lease's acquireTime and renewTime and of an Event's eventTime.
std::string format_micro_time(TimePoint time);
// "2026-12-21T11:00:00+01:00": local time with its offset ("Z" when it is
// UTC), as `kubectl rollout restart` writes kubectl.kubernetes.io/restartedAt.
std::string format_rfc3339_local(TimePoint time);
// "2026-12-21" (UTC).
std::string format_date(TimePoint time);
// Parses "YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)" ('t' and 'z' in lower
// case too); fractions are ignored; nullopt for anything else. Times past
// the year 2191 are clamped to it (system_clock counts nanoseconds in 64
// bits, until 2262).
std::optional<TimePoint> parse_rfc3339(std::string_view text);

}  // namespace mkq::base
