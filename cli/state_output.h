// What `mkq state` and `mkq history` share: opening the state without
// creating it, and printing JSON and tables on stdout.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/operation/options.h"
#include "runtime/state/state.h"

namespace mkq::cli {

using OrderedJson = nlohmann::ordered_json;

// The version of the documents `mkq state` and `mkq history` print with
// --format json (docs/json.md): raised when a field changes meaning or goes.
inline constexpr int kStateJsonFormatVersion = 1;

// Prints `fields` (an object) as one document, its format_version first.
void print_document(const OrderedJson& fields);

// Columns padded to their widest cell; the last column is not padded.
void print_table(const std::vector<std::vector<std::string>>& rows);

std::string or_dash(const std::string& text);

// Opens the state without creating it: a file, or kubernetes://... reached as
// `runtime` says (operation/state_open.h). nullptr and *missing when there is
// none; nullptr with the error printed when it cannot be read.
std::unique_ptr<state::StateStore> open_state(const std::string& path, const operation::RuntimeOptions& runtime,
                                              const std::string& policy_path, bool* missing);

// A state in a cluster with chunk Secrets no index names: a warning on stderr
// naming them (nothing when there are none, or they cannot be listed).
void warn_orphaned_chunks(const state::StateStore& store);

struct StateCommandOptions;
// `mkq state push|pull` (cmd_state_transfer.cpp).
int run_state_transfer(const StateCommandOptions& options);

}  // namespace mkq::cli
