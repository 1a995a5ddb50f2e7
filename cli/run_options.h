// What the commands that reach clusters (plan, apply, destroy, credentials
// rotate, status) hand the operation library from their flags and the
// environment: the policy, the runtime options, the compile options, the
// clock, and durations as typed.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "runtime/operation/operation.h"

namespace mkq::cli {

// Parses "30s", "5m", "1h30m", "90" (seconds); false when malformed.
bool parse_duration(const std::string& text, std::chrono::milliseconds* out);

// --wait=DURATION when `wait` is set: false, with the error printed, when the
// duration is malformed.
bool wait_option(bool wait, const std::string& duration, std::optional<std::chrono::milliseconds>* out);

// The options every operation shares. The credential provider's clock is the
// system's, or MKQ_NOW (RFC 3339 UTC, "2026-12-20T00:00:00Z") for tests of
// expiry and rotation: false, with the error printed, when MKQ_NOW is
// malformed (rather than silently the real time).
bool run_options(const std::string& path, const RuntimeOptions& runtime, const GlobalOptions& global,
                 operation::RunOptions* out);

}  // namespace mkq::cli
