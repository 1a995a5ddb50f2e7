// The name a policy goes by in the labels of its objects (mkq.dev/policy).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace mkq::kueue {

// The policy's name from its path: the directory's name, or the file's name
// without ".mkq" ("." is the current directory's name), made a valid label
// value: characters other than [A-Za-z0-9-_.] become '-', it starts and ends
// with a letter or digit, at most 63 characters; "policy" when nothing is left.
std::string policy_name_for(const std::filesystem::path& path);

// `text` made a valid Kubernetes label value as above.
std::string to_label_value(std::string_view text);

}  // namespace mkq::kueue
