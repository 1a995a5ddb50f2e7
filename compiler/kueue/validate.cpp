// validate(): the entry of compile-time Kueue validation. The checks live in
// validate_<area>.cpp; this file runs them and holds what they share.
#include "compiler/kueue/validate.h"

#include "compiler/kueue/validate_internal.h"

namespace mkq::kueue {
namespace validate_detail {

namespace {

diag::Diagnostic& annotate(diag::Diagnostic& d, const model::Declaration* owner) {
  if (owner == nullptr) return d;
  for (const diag::SourceRange& site : owner->instantiated_from)
    d.notes.push_back({"instantiated from here", site});
  return d;
}

}  // namespace

diag::Diagnostic& Reporter::error(const char* code, const diag::SourceRange& range, std::string message,
                                  const model::Declaration* owner) {
  return annotate(diagnostics_.error(code, range, std::move(message)), owner);
}

diag::Diagnostic& Reporter::warning(const char* code, const diag::SourceRange& range, std::string message,
                                    const model::Declaration* owner) {
  return annotate(diagnostics_.warning(code, range, std::move(message)), owner);
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string result;
  for (const std::string& item : items) result += (result.empty() ? "'" : ", '") + item + "'";
  return result;
}

}  // namespace validate_detail

void validate(const sema::model::Policy& policy, diag::Diagnostics& diagnostics) {
  validate_detail::Reporter reporter(diagnostics);
  validate_detail::check_queues(policy, reporter);
  validate_detail::check_kueue_settings(policy, reporter);
  validate_detail::check_openshift(policy, reporter);
  validate_detail::check_clusters(policy, reporter);
}

}  // namespace mkq::kueue
