// A policy's identity and where it lives (policy_name.h).
#include "compiler/kueue/policy_name.h"

#include <system_error>

#include "compiler/kueue/schema.h"

namespace mkq::kueue {

namespace fs = std::filesystem;

namespace {

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// `path` absolute, normal, symbolic links resolved as far as it exists, and
// without a trailing separator.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) out = fs::absolute(path, ec).lexically_normal();
  if (!out.has_filename() && out.has_parent_path() && out != out.root_path()) out = out.parent_path();
  return out;
}

// The *.mkq files of `directory` other than `file`: is `file` alone there?
bool only_policy_file(const fs::path& directory, const fs::path& file) {
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& other = it->path();
    if (other.extension() != ".mkq" || other.filename() == file.filename()) continue;
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) return false;
  }
  return true;
}

}  // namespace

PolicyHome policy_home(const fs::path& path) {
  const fs::path full = resolved(path);
  std::error_code ec;
  const bool directory = fs::is_directory(full, ec) || (!fs::exists(full, ec) && full.extension() != ".mkq");
  if (directory) return PolicyHome{full, ""};
  const fs::path parent = full.parent_path();
  if (only_policy_file(parent, full)) return PolicyHome{parent, ""};
  return PolicyHome{parent, full.stem().string()};
}

std::string derived_policy_name(const PolicyHome& home) {
  return to_label_value(home.stem.empty() ? home.directory.filename().string() : home.stem);
}

std::string policy_name_for(const fs::path& path) { return derived_policy_name(policy_home(path)); }

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

base::Result<std::string> choose_identity(const std::optional<std::string>& declared, const std::string& recorded,
                                          const std::string& derived, bool own_state, const std::string& state_shown) {
  const std::string belongs = "the state " + state_shown + " belongs to policy '" + recorded + "'";
  if (declared) {
    if (recorded.empty() || recorded == *declared) return *declared;
    return base::Error::config(belongs + ", this policy declares '" + *declared +
                               "': a policy is not renamed silently; declare `policy \"" + recorded +
                               "\" {}` to keep its objects, or pass --state FILE for another state");
  }
  if (recorded.empty() || recorded == derived || own_state) return recorded.empty() ? derived : recorded;
  return base::Error::config(belongs + ", this policy is '" + derived +
                             "': pass --state FILE for another state, or declare `policy \"" + recorded +
                             "\" {}` in the policy if it is the same one");
}

void relabel(DesiredState& desired, const std::string& name) {
  desired.policy = name;
  const std::string key(schema::kPolicyLabel);
  for (ClusterObjects& cluster : desired.clusters) {
    for (Object& object : cluster.objects) {
      Json& metadata = object.document["metadata"];
      if (metadata.contains("labels") && metadata["labels"].is_object()) metadata["labels"][key] = name;
    }
  }
}

}  // namespace mkq::kueue
