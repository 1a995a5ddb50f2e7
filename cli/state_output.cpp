#include "cli/state_output.h"

#include <algorithm>
#include <cstdio>

#include "cli/terminal_ui.h"
#include "runtime/operation/state_open.h"

namespace mkq::cli {

void print_document(const OrderedJson& fields) {
  OrderedJson document{{"format_version", kStateJsonFormatVersion}};
  for (const auto& [key, value] : fields.items()) document[key] = value;
  std::fputs((document.dump(2) + "\n").c_str(), stdout);
}

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::fputs((line + "\n").c_str(), stdout);
  }
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

// A state in a cluster with chunk Secrets no index names (a writer that
// crashed mid-write): said on stderr, with what removes them. Nothing is said
// when they cannot be listed: the listing is what was asked.
void warn_orphaned_chunks(const state::StateStore& store) {
  const base::Result<std::vector<std::string>> orphans = store.orphaned_chunks();
  if (!orphans || orphans->empty()) return;
  std::string names;
  for (const std::string& name : *orphans) names += (names.empty() ? "" : ", ") + name;
  std::fprintf(stderr,
               "mkq: warning: %zu chunk Secret%s of %s %s named by no index (left by an interrupted write): %s; the "
               "next write to the state removes %s\n",
               orphans->size(), orphans->size() == 1 ? "" : "s", store.location().c_str(),
               orphans->size() == 1 ? "is" : "are", names.c_str(), orphans->size() == 1 ? "it" : "them");
}

std::unique_ptr<state::StateStore> open_state(const std::string& path, const operation::RuntimeOptions& runtime,
                                              const std::string& policy_path, bool* missing) {
  *missing = false;
  base::Result<std::unique_ptr<state::StateStore>> store = operation::open_state_at(path, runtime, policy_path, false);
  if (!store) {
    error_line(base::render(store.error()));
    return nullptr;
  }
  *missing = *store == nullptr;
  return std::move(store.value());
}

}  // namespace mkq::cli
