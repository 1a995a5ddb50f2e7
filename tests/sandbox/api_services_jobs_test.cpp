// Services, batch/v1 Jobs and CronJobs, scheduling.k8s.io PriorityClasses
// through handle(), each case asserting what kube-apiserver v1.33 answers:
// defaults, allocation, validation messages, printers, discovery.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "api_test_support.h"

using namespace mkq::sandbox;
using namespace mkq::sandbox::testing;
using nlohmann::json;
using Strings = std::vector<std::string>;

namespace {

const char* const kServices = "/api/v1/namespaces/default/services";
const char* const kJobs = "/apis/batch/v1/namespaces/default/jobs";
const char* const kCronJobs = "/apis/batch/v1/namespaces/default/cronjobs";
const char* const kPriorityClasses = "/apis/scheduling.k8s.io/v1/priorityclasses";

ApiResponse post(Cluster& c, const std::string& path, const json& body) {
  return c.handle(request("POST", path, body.dump()));
}

json service(const std::string& name, json spec) {
  return {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", name}}}, {"spec", std::move(spec)}};
}

json port(int number) { return {{"port", number}}; }

json job(const std::string& name, const std::string& restart = "Never") {
  json pod_spec = {{"containers", {{{"name", "worker"}, {"image", "busybox:1.36"}}}}};
  if (!restart.empty()) pod_spec["restartPolicy"] = restart;
  return {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", {{"name", name}}},
          {"spec", {{"template", {{"spec", pod_spec}}}}}};
}

json priority_class(const std::string& name, long long value, bool global_default = false) {
  json object = {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", name}}},
                 {"value", value}};
  if (global_default) object["globalDefault"] = true;
  return object;
}

// The causes of a 422, as "field: message".
std::vector<std::string> causes(const ApiResponse& response) {
  std::vector<std::string> out;
  const json body = body_of(response);
  for (const json& cause : body["details"]["causes"]) out.push_back(cause.value("field", "") + ": " + cause.value("message", ""));
  return out;
}

json table_of(Cluster& c, const std::string& path) {
  ApiRequest r = request("GET", path);
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io";
  const ApiResponse response = c.handle(r);
  REQUIRE(response.status == 200);
  return body_of(response);
}

std::vector<std::string> column_names(const json& table) {
  std::vector<std::string> out;
  for (const json& d : table["columnDefinitions"]) out.push_back(d["name"]);
  return out;
}

}  // namespace

TEST_CASE("sandbox services: discovery, the kubernetes Service and v1 defaults", "[sandbox][api][services]") {
  auto c = memory_cluster();
  std::map<std::string, json> by_name;
  const json core = body_of(c->handle(request("GET", "/api/v1")));  // kept: a range over a temporary's member would outlive it
  for (const json& r : core["resources"]) by_name[r["name"]] = r;
  REQUIRE(by_name.count("services") == 1);
  CHECK(by_name["services"]["shortNames"] == json::array({"svc"}));
  CHECK(by_name["services"]["categories"] == json::array({"all"}));
  CHECK(by_name.count("services/status") == 1);

  // kube-apiserver's bootstrap controller: default/kubernetes on the service CIDR's first address.
  const json kubernetes = body_of(c->handle(request("GET", std::string(kServices) + "/kubernetes")));
  CHECK(kubernetes["spec"]["clusterIP"] == "10.96.0.1");
  CHECK(kubernetes["spec"]["ports"][0] == json({{"name", "https"}, {"port", 443}, {"protocol", "TCP"}, {"targetPort", 6443}}));

  const ApiResponse created = post(*c, kServices, service("web", {{"selector", {{"app", "web"}}}, {"ports", {port(80)}}}));
  INFO(created.body);
  REQUIRE(created.status == 201);
  const json spec = body_of(created)["spec"];
  CHECK(spec["type"] == "ClusterIP");
  CHECK(spec["sessionAffinity"] == "None");
  CHECK(spec["internalTrafficPolicy"] == "Cluster");
  CHECK(spec["ipFamilies"] == json::array({"IPv4"}));
  CHECK(spec["ipFamilyPolicy"] == "SingleStack");
  CHECK(spec["ports"][0] == json({{"port", 80}, {"protocol", "TCP"}, {"targetPort", 80}}));
  const std::string ip = spec["clusterIP"];
  CHECK(spec["clusterIPs"] == json::array({ip}));
  CHECK(ip.rfind("10.", 0) == 0);
  CHECK(ip != "10.96.0.1");
  CHECK(body_of(created)["status"] == json({{"loadBalancer", json::object()}}));

  SECTION("a PUT without the clusterIP keeps it; changing it is refused") {
    json update = body_of(created);
    update["spec"].erase("clusterIP");
    update["spec"].erase("clusterIPs");
    const ApiResponse kept = c->handle(request("PUT", std::string(kServices) + "/web", update.dump()));
    INFO(kept.body);
    CHECK(kept.status == 200);
    CHECK(body_of(kept)["spec"]["clusterIP"] == ip);
    json moved = body_of(kept);
    moved["spec"]["clusterIP"] = "10.96.0.77";
    const ApiResponse refused = c->handle(request("PUT", std::string(kServices) + "/web", moved.dump()));
    CHECK(refused.status == 422);
    CHECK(causes(refused) == Strings({"spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.77\"}: may not change once set"}));
  }
}

TEST_CASE("sandbox services: explicit clusterIPs, headless and node ports are allocated as kube-apiserver does", "[sandbox][api][services]") {
  auto c = memory_cluster();
  REQUIRE(post(*c, kServices, service("a", {{"clusterIP", "10.96.0.10"}, {"ports", {port(80)}}})).status == 201);
  const ApiResponse taken = post(*c, kServices, service("b", {{"clusterIP", "10.96.0.10"}, {"ports", {port(80)}}}));
  CHECK(taken.status == 422);
  CHECK(body_of(taken)["message"] ==
        "Service \"b\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: failed to allocate IP "
        "10.96.0.10: provided IP is already allocated");
  const ApiResponse outside = post(*c, kServices, service("c", {{"clusterIP", "10.0.0.5"}, {"ports", {port(80)}}}));
  CHECK(causes(outside) == Strings({
                               "spec.clusterIPs: Invalid value: []string{\"10.0.0.5\"}: failed to allocate IP 10.0.0.5: the "
                               "provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12"}));
  const ApiResponse garbage = post(*c, kServices, service("d", {{"clusterIP", "10.96.0.300"}, {"ports", {port(80)}}}));
  CHECK(causes(garbage) == Strings({"spec.clusterIPs[0]: Invalid value: \"10.96.0.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}));

  // Headless: kept None; without a selector both families are asked for.
  const ApiResponse headless = post(*c, kServices, service("h", {{"clusterIP", "None"}}));
  INFO(headless.body);
  REQUIRE(headless.status == 201);
  CHECK(body_of(headless)["spec"]["clusterIPs"] == json::array({"None"}));
  CHECK(body_of(headless)["spec"]["ipFamilyPolicy"] == "RequireDualStack");
  CHECK(body_of(headless)["spec"]["ipFamilies"] == json::array({"IPv4", "IPv6"}));

  const ApiResponse node_port = post(*c, kServices, service("np", {{"type", "NodePort"}, {"ports", {port(8080)}}}));
  REQUIRE(node_port.status == 201);
  const long long allocated = body_of(node_port)["spec"]["ports"][0]["nodePort"];
  CHECK(allocated >= 30128);  // dynamic allocation keeps out of the static band
  CHECK(allocated <= 32767);
  CHECK(body_of(node_port)["spec"]["externalTrafficPolicy"] == "Cluster");
  json fixed = {{"port", 80}, {"nodePort", allocated}};
  const ApiResponse clash = post(*c, kServices, service("np2", {{"type", "NodePort"}, {"ports", {fixed}}}));
  CHECK(causes(clash) == Strings({fmt::format("spec.ports[0].nodePort: Invalid value: {}: provided port is already allocated", allocated)}));
  fixed["nodePort"] = 80;
  CHECK(causes(post(*c, kServices, service("np3", {{"type", "NodePort"}, {"ports", {fixed}}}))) ==
        Strings({"spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767"}));
  const ApiResponse lb = post(*c, kServices, service("lb", {{"type", "LoadBalancer"}, {"ports", {port(443)}}}));
  REQUIRE(lb.status == 201);
  CHECK(body_of(lb)["spec"]["allocateLoadBalancerNodePorts"] == true);
  CHECK(body_of(lb)["spec"]["ports"][0]["nodePort"].is_number_integer());

  SECTION("a dry run allocates without keeping") {
    ApiRequest r = request("POST", kServices, service("dry", {{"clusterIP", "10.96.0.20"}, {"ports", {port(80)}}}).dump());
    r.query = {{"dryRun", "All"}};
    CHECK(c->handle(r).status == 201);
    CHECK(post(*c, kServices, service("wet", {{"clusterIP", "10.96.0.20"}, {"ports", {port(80)}}})).status == 201);
  }
}

TEST_CASE("sandbox services: validation in kube-apiserver's words", "[sandbox][api][services]") {
  auto c = memory_cluster();
  CHECK(causes(post(*c, kServices, service("noports", json::object()))) == Strings({"spec.ports: Required value"}));
  CHECK(causes(post(*c, kServices, service("1bad", {{"ports", {port(80)}}}))) ==
        Strings({"metadata.name: Invalid value: \"1bad\": a DNS-1035 label must consist of lower case alphanumeric "
                                 "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
                                 "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}));
  CHECK(causes(post(*c, kServices, service("two", {{"ports", {port(80), port(81)}}}))) ==
        Strings({"spec.ports[0].name: Required value", "spec.ports[1].name: Required value"}));
  CHECK(causes(post(*c, kServices, service("range", {{"ports", {port(70000)}}}))) ==
        Strings({"spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                                 "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"}));
  const json a = {{"name", "a"}, {"port", 80}};
  const json b = {{"name", "b"}, {"port", 80}};
  CHECK(causes(post(*c, kServices, service("dup", {{"ports", {a, b}}}))) ==
        Strings({"spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", "
                                 "AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, "
                                 "StrVal:\"\"}, NodePort:0}"}));
  CHECK(causes(post(*c, kServices, service("kind", {{"type", "Sideways"}, {"ports", {port(80)}}}))) ==
        Strings({"spec.type: Unsupported value: \"Sideways\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\""}));
  const json with_node_port = {{"port", 80}, {"nodePort", 30080}};
  CHECK(causes(post(*c, kServices, service("cip", {{"ports", {with_node_port}}}))) ==
        Strings({"spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"}));
  const ApiResponse external = post(*c, kServices, service("ext", {{"type", "ExternalName"}, {"externalName", "db.example.com"}}));
  INFO(external.body);
  CHECK(external.status == 201);
  CHECK_FALSE(body_of(external)["spec"].contains("clusterIP"));
}

TEST_CASE("sandbox services: strategic merge of ports keyed by port", "[sandbox][api][services]") {
  auto c = memory_cluster();
  const json a = {{"name", "http"}, {"port", 80}};
  const json b = {{"name", "https"}, {"port", 443}};
  REQUIRE(post(*c, kServices, service("web", {{"ports", {a, b}}})).status == 201);
  const json patch = {{"spec", {{"ports", {{{"port", 443}, {"targetPort", 8443}}}}}}};
  const ApiResponse patched = c->handle(request("PATCH", std::string(kServices) + "/web", patch.dump(), {},
                                                "application/strategic-merge-patch+json"));
  INFO(patched.body);
  REQUIRE(patched.status == 200);
  const json ports = body_of(patched)["spec"]["ports"];
  REQUIRE(ports.size() == 2);
  CHECK(ports[0]["targetPort"] == 80);
  CHECK(ports[1]["targetPort"] == 8443);
}

TEST_CASE("sandbox services: the table printer", "[sandbox][api][services]") {
  auto c = memory_cluster();
  REQUIRE(post(*c, kServices, service("np", {{"type", "NodePort"}, {"selector", {{"app", "web"}, {"tier", "front"}}},
                                             {"ports", {{{"port", 80}, {"nodePort", 30080}}}}})).status == 201);
  REQUIRE(post(*c, kServices, service("lb", {{"type", "LoadBalancer"}, {"clusterIP", "10.96.0.50"},
                                             {"ports", {{{"port", 443}, {"nodePort", 30443}, {"protocol", "UDP"}}}}})).status == 201);
  const json table = table_of(*c, kServices);
  CHECK(column_names(table) == Strings({"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"}));
  std::map<std::string, json> rows;
  for (const json& row : table["rows"]) rows[row["cells"][0]] = row["cells"];
  CHECK(rows["kubernetes"] == json({"kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP", rows["kubernetes"][5], "<none>"}));
  CHECK(rows["np"][1] == "NodePort");
  CHECK(rows["np"][3] == "<none>");
  CHECK(rows["np"][4] == "80:30080/TCP");
  CHECK(rows["np"][6] == "app=web,tier=front");
  CHECK(rows["lb"][2] == "10.96.0.50");
  CHECK(rows["lb"][3] == "<pending>");
  CHECK(rows["lb"][4] == "443:30443/UDP");
}

TEST_CASE("sandbox jobs: defaults, the generated selector and labels", "[sandbox][api][jobs]") {
  auto c = memory_cluster();
  std::map<std::string, json> by_name;
  const json batch = body_of(c->handle(request("GET", "/apis/batch/v1")));
  for (const json& r : batch["resources"]) by_name[r["name"]] = r;
  CHECK(by_name["jobs"]["categories"] == json::array({"all"}));
  CHECK(by_name["cronjobs"]["shortNames"] == json::array({"cj"}));
  CHECK(by_name.count("jobs/status") == 1);

  json sample = job("");
  sample["metadata"] = {{"generateName", "sample-job-"}, {"labels", {{"kueue.x-k8s.io/queue-name", "team-queue"}}}};
  sample["spec"]["suspend"] = true;
  const ApiResponse created = post(*c, kJobs, sample);
  INFO(created.body);
  REQUIRE(created.status == 201);
  const json object = body_of(created);
  const std::string name = object["metadata"]["name"];
  const std::string uid = object["metadata"]["uid"];
  CHECK(name.rfind("sample-job-", 0) == 0);
  CHECK(name.size() == std::string("sample-job-").size() + 5);
  const json& spec = object["spec"];
  CHECK(spec["completions"] == 1);
  CHECK(spec["parallelism"] == 1);
  CHECK(spec["backoffLimit"] == 6);
  CHECK(spec["completionMode"] == "NonIndexed");
  CHECK(spec["suspend"] == true);
  CHECK(spec["manualSelector"] == false);
  CHECK(spec["podReplacementPolicy"] == "TerminatingOrFailed");
  CHECK(spec["selector"] == json({{"matchLabels", {{"batch.kubernetes.io/controller-uid", uid}}}}));
  CHECK(spec["template"]["metadata"]["labels"] == json({{"batch.kubernetes.io/controller-uid", uid},
                                                        {"batch.kubernetes.io/job-name", name},
                                                        {"controller-uid", uid},
                                                        {"job-name", name}}));
  CHECK(spec["template"]["spec"]["dnsPolicy"] == "ClusterFirst");
  CHECK(spec["template"]["spec"]["containers"][0]["imagePullPolicy"] == "IfNotPresent");
  CHECK(object["metadata"]["labels"] == json({{"kueue.x-k8s.io/queue-name", "team-queue"}}));
  CHECK(object["metadata"]["generation"] == 1);

  // Without labels of its own, a Job takes its template's (SetDefaults_Job, as the object is read back).
  const ApiResponse plain = post(*c, kJobs, job("plain"));
  REQUIRE(plain.status == 201);
  CHECK(body_of(plain)["metadata"]["labels"]["job-name"] == "plain");

  SECTION("the selector is immutable; a suspended Job's scheduling directives are not") {
    json update = object;
    update["spec"]["template"]["spec"]["nodeSelector"] = {{"pool", "gpu"}};
    const ApiResponse admitted = c->handle(request("PUT", std::string(kJobs) + "/" + name, update.dump()));
    INFO(admitted.body);
    CHECK(admitted.status == 200);
    json moved = body_of(admitted);
    moved["spec"]["selector"]["matchLabels"]["extra"] = "x";
    moved["spec"]["template"]["metadata"]["labels"]["extra"] = "x";
    const ApiResponse refused = c->handle(request("PUT", std::string(kJobs) + "/" + name, moved.dump()));
    CHECK(refused.status == 422);
    // The selector no longer selects only the generated labels, and it changed.
    const std::string selector = fmt::format("v1.LabelSelector{{MatchLabels:map[string]string{{\"batch.kubernetes.io/"
                                             "controller-uid\":\"{}\", \"extra\":\"x\"}}, MatchExpressions:[]v1."
                                             "LabelSelectorRequirement(nil)}}",
                                             uid);
    CHECK(causes(refused) == Strings({"spec.selector: Invalid value: " + selector + ": `selector` not auto-generated",
                                      "spec.selector: Invalid value: " + selector + ": field is immutable"}));
  }
}

TEST_CASE("sandbox jobs: validation in kube-apiserver's words", "[sandbox][api][jobs]") {
  auto c = memory_cluster();
  CHECK(causes(post(*c, kJobs, job("always", ""))) ==
        Strings({"spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""}));
  CHECK(causes(post(*c, kJobs, job("weird", "Sometimes"))) ==
        Strings({"spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"OnFailure\", \"Never\""}));
  json negative = job("neg");
  negative["spec"]["backoffLimit"] = -1;
  CHECK(causes(post(*c, kJobs, negative)) == Strings({"spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"}));
}

TEST_CASE("sandbox jobs: the status.successful field selector", "[sandbox][api][jobs]") {
  auto c = memory_cluster();
  REQUIRE(post(*c, kJobs, job("done")).status == 201);
  REQUIRE(post(*c, kJobs, job("waiting")).status == 201);
  // No job controller: a client writes the status, as kube-controller-manager's would.
  REQUIRE(c->handle(request("PATCH", std::string(kJobs) + "/done/status", R"({"status":{"succeeded":1}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  const auto names = [&](const std::string& selector) {
    Strings out;
    const json list = body_of(c->handle(request("GET", kJobs, "", {{"fieldSelector", selector}})));
    for (const json& item : list["items"]) {
      out.push_back(item["metadata"]["name"]);
    }
    return out;
  };
  CHECK(names("status.successful=1") == Strings({"done"}));
  CHECK(names("status.successful=0") == Strings({"waiting"}));  // no count: 0, as strconv.Itoa of Go's zero
  CHECK(names("status.successful!=0,metadata.name=done") == Strings({"done"}));
  const ApiResponse r = c->handle(request("GET", kJobs, "", {{"fieldSelector", "status.failed=0"}}));
  CHECK(r.status == 400);
  CHECK(body_of(r)["message"] == "field label not supported: status.failed");
}

TEST_CASE("sandbox jobs: the printers of jobs and cronjobs", "[sandbox][api][jobs]") {
  auto c = memory_cluster();
  json done = job("done");
  done["spec"]["completions"] = 3;
  done["spec"]["parallelism"] = 2;
  const ApiResponse created = post(*c, kJobs, done);
  REQUIRE(created.status == 201);
  json status = body_of(created);
  status["status"] = {{"succeeded", 3},
                      {"startTime", "2025-01-01T00:00:00Z"},
                      {"completionTime", "2025-01-01T00:01:05Z"},
                      {"conditions", {{{"type", "Complete"}, {"status", "True"}}}}};
  const ApiResponse written = c->handle(request("PUT", std::string(kJobs) + "/done/status", status.dump()));
  INFO(written.body);
  REQUIRE(written.status == 200);
  REQUIRE(post(*c, kJobs, job("running")).status == 201);
  const json table = table_of(*c, kJobs);
  CHECK(column_names(table) == Strings({"Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector"}));
  std::map<std::string, json> rows;
  for (const json& row : table["rows"]) rows[row["cells"][0]] = row["cells"];
  CHECK(rows["done"][1] == "Complete");
  CHECK(rows["done"][2] == "3/3");
  CHECK(rows["done"][3] == "65s");
  CHECK(rows["running"][1] == "Running");
  CHECK(rows["running"][2] == "0/1");
  CHECK(rows["running"][3] == "");
  CHECK(rows["running"][5] == "worker");
  CHECK(rows["running"][6] == "busybox:1.36");

  json cron = {{"apiVersion", "batch/v1"},
               {"kind", "CronJob"},
               {"metadata", {{"name", "nightly"}}},
               {"spec", {{"schedule", "0 3 * * *"}, {"jobTemplate", {{"spec", job("x")["spec"]}}}}}};
  const ApiResponse cron_created = post(*c, kCronJobs, cron);
  INFO(cron_created.body);
  REQUIRE(cron_created.status == 201);
  CHECK(body_of(cron_created)["spec"]["concurrencyPolicy"] == "Allow");
  CHECK(body_of(cron_created)["spec"]["successfulJobsHistoryLimit"] == 3);
  CHECK(body_of(cron_created)["spec"]["failedJobsHistoryLimit"] == 1);
  const json cron_table = table_of(*c, kCronJobs);
  CHECK(column_names(cron_table) == Strings({"Name", "Schedule", "Timezone", "Suspend", "Active", "Last Schedule", "Age", "Containers", "Images", "Selector"}));
  const json cells = cron_table["rows"][0]["cells"];
  CHECK(cells[1] == "0 3 * * *");
  CHECK(cells[2] == "<none>");
  CHECK(cells[3] == "False");
  CHECK(cells[4] == 0);
  CHECK(cells[5] == "<none>");

  cron["metadata"]["name"] = "bad";
  cron["spec"]["schedule"] = "61 * * * *";
  CHECK(causes(post(*c, kCronJobs, cron)) == Strings({"spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"}));
  cron["spec"]["schedule"] = "TZ=UTC 0 3 * * *";
  CHECK(causes(post(*c, kCronJobs, cron)) == Strings({"spec.schedule: Invalid value: \"TZ=UTC 0 3 * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"}));
  cron["metadata"]["name"] = "daily";
  cron["spec"]["schedule"] = "@daily";
  CHECK(post(*c, kCronJobs, cron).status == 201);
  cron["metadata"]["name"] = "bad";
  cron["spec"]["schedule"] = "every day";
  CHECK(causes(post(*c, kCronJobs, cron)) == Strings({"spec.schedule: Invalid value: \"every day\": expected exactly 5 fields, found 2: [every day]"}));
}

TEST_CASE("sandbox priority classes: system classes, ranges, one default, immutability", "[sandbox][api][priorityclasses]") {
  auto c = memory_cluster();
  const json critical = body_of(c->handle(request("GET", std::string(kPriorityClasses) + "/system-node-critical")));
  CHECK(critical["value"] == 2000001000);
  CHECK(critical["preemptionPolicy"] == "PreemptLowerPriority");
  const ApiResponse undeletable = c->handle(request("DELETE", std::string(kPriorityClasses) + "/system-cluster-critical"));
  CHECK(undeletable.status == 403);
  CHECK(body_of(undeletable)["message"] ==
        "priorityclasses.scheduling.k8s.io \"system-cluster-critical\" is forbidden: this is a system priority class and cannot be deleted");

  CHECK(causes(post(*c, kPriorityClasses, priority_class("huge", 1000000001))) ==
        Strings({"value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}));
  CHECK(causes(post(*c, kPriorityClasses, priority_class("system-mine", 10))) ==
        Strings({"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. "
                                 "error: system-mine is not a known system priority class"}));

  REQUIRE(post(*c, kPriorityClasses, priority_class("first", 10, true)).status == 201);
  const ApiResponse second = post(*c, kPriorityClasses, priority_class("second", 20, true));
  CHECK(second.status == 403);
  CHECK(body_of(second)["message"] ==
        "priorityclasses.scheduling.k8s.io \"second\" is forbidden: PriorityClass first is already marked as default. Only one default can exist");

  json changed = body_of(c->handle(request("GET", std::string(kPriorityClasses) + "/first")));
  changed["value"] = 11;
  CHECK(causes(c->handle(request("PUT", std::string(kPriorityClasses) + "/first", changed.dump()))) ==
        Strings({"value: Forbidden: may not be changed in an update."}));

  const json table = table_of(*c, kPriorityClasses);
  CHECK(column_names(table) == Strings({"Name", "Value", "Global-Default", "Age", "PreemptionPolicy"}));
  const json cells = table["rows"][0]["cells"];
  CHECK(cells[0] == "first");
  CHECK(cells[1] == 10);
  CHECK(cells[2] == true);
  CHECK(cells[4] == "PreemptLowerPriority");
}
