// Retries and Kueue's installation over the admin client (admin_client.h).
#include "sandbox/admin_client.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include <fmt/format.h>

#include "sandbox/controllers.h"
#include "sandbox/kueue_install.h"

namespace mkq::sandbox {

using nlohmann::json;

int retrying(const std::function<int()>& send) {
  int code = -1;
  for (int attempt = 0; attempt < 50; ++attempt) {
    code = send();
    if (code != 500 && code != 429 && code >= 0) return code;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return code;
}

int post_retrying(AdminClient& client, const std::string& path, const std::string& body, std::string* answer) {
  return retrying([&] { return client.post(path, body, answer); });
}

int install_kueue_objects(AdminClient& client, const std::string& cluster, TextSink& err) {
  int failures = 0;
  for (const json& object : kueue_install_objects()) {
    const std::string kind = object.value("kind", "");
    const std::string name = object["metadata"].value("name", "");
    const std::string collection = kind == "Deployment" ? "/apis/apps/v1/namespaces/" + std::string(kKueueNamespace) + "/deployments"
                                                        : "/api/v1/namespaces/" + std::string(kKueueNamespace) + "/configmaps";
    const std::string path = collection + "/" + name;
    const int found = retrying([&] { return client.get(path); });
    if (found == 200) continue;
    std::string body;
    const int code = found == 404 ? retrying([&] { return client.apply(path, object.dump(), &body); }) : found;
    if (code != 200 && code != 201) {
      ++failures;
      err << fmt::format("mkq: error: {}: cannot install {} {}/{} (HTTP {})\n", cluster, kind,
                         kKueueNamespace, name, code);
    }
  }
  return failures;
}

}  // namespace mkq::sandbox
