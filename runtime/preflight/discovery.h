// What a cluster serves, from its discovery documents (GET /apis and GET
// /apis/GROUP/VERSION), each read at most once per check. Every answer is
// nullopt when the document could not be read: preflight then says nothing
// rather than guess.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kube/client.h"

namespace mkq::preflight {

class Discovery {
 public:
  explicit Discovery(kube::Client& client) : client_(client) {}

  // The versions a named API group serves; empty when it is not served.
  std::optional<std::vector<std::string>> versions(const std::string& group);
  // Whether GROUP/VERSION serves the kind (the group served in that version).
  bool serves_kind(const std::string& group, const std::string& version, std::string_view kind);
  // Whether some version of the group serves the resource (a plural).
  std::optional<bool> serves_resource(const std::string& group, std::string_view plural);

 private:
  // The resources of GROUP/VERSION (APIResourceList.resources); empty when not served.
  const kube::Json& resources(const std::string& group, const std::string& version);

  kube::Client& client_;
  std::optional<kube::Json> groups_;               // APIGroupList.groups; null when unreadable
  std::map<std::string, kube::Json> resources_;   // "group/version" -> resources
};

}  // namespace mkq::preflight
