// Policy names for the mkq.dev/policy label (policy_name.h).
#include "compiler/kueue/policy_name.h"

#include <system_error>

#include "compiler/kueue/schema.h"

namespace mkq::kueue {

namespace {

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

}  // namespace

std::string to_label_value(std::string_view text) {
  std::string out;
  for (const char c : text) out += is_alnum(c) || c == '-' || c == '_' || c == '.' ? c : '-';
  if (out.size() > schema::kMaxLabelValueLength) out.resize(schema::kMaxLabelValueLength);
  while (!out.empty() && !is_alnum(out.back())) out.pop_back();
  std::size_t start = 0;
  while (start < out.size() && !is_alnum(out[start])) ++start;
  out.erase(0, start);
  return out.empty() ? std::string("policy") : out;
}

std::string policy_name_for(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) resolved = path.lexically_normal();
  if (!resolved.has_filename()) resolved = resolved.parent_path();  // "dir/" -> "dir"
  std::string name = resolved.filename().string();
  if (resolved.extension() == ".mkq") name = resolved.stem().string();
  return to_label_value(name);
}

}  // namespace mkq::kueue
