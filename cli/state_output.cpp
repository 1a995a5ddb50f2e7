#include "cli/state_output.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/print.h"
#include "cli/terminal_ui.h"
#include "runtime/operation/state_open.h"

namespace mkq::cli {

void print_document(const OrderedJson& fields) {
  OrderedJson document{{"format_version", kStateJsonFormatVersion}};
  for (const auto& [key, value] : fields.items()) document[key] = value;
  base::print("{}\n", document.dump(2));
}

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  // Padded by bytes, as the widths are counted ({fmt}'s widths count display columns).
  std::string text;
  for (const auto& row : rows) {
    const std::size_t start = text.size();
    for (std::size_t i = 0; i < row.size(); ++i) {
      text += row[i];
      if (i + 1 < row.size()) text.append(widths[i] - row[i].size() + 2, ' ');
    }
    while (text.size() > start && text.back() == ' ') text.pop_back();
    text += '\n';
  }
  base::print("{}", text);
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

// A state in a cluster with chunk Secrets no index names (a writer that
// crashed mid-write): said on stderr, with what removes them. Nothing is said
// when they cannot be listed: the listing is what was asked.
void warn_orphaned_chunks(const state::StateStore& store) {
  const base::Result<std::vector<std::string>> orphans = store.orphaned_chunks();
  if (!orphans || orphans->empty()) return;
  const bool one = orphans->size() == 1;
  base::print(stderr,
              "mkq: warning: {} chunk Secret{} of {} {} named by no index (left by an interrupted write): {}; the next "
              "write to the state removes {}\n",
              orphans->size(), one ? "" : "s", store.location(), one ? "is" : "are", fmt::join(*orphans, ", "),
              one ? "it" : "them");
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
