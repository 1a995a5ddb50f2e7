// Protobuf bodies of the kinds kubectl's generators create beyond the core
// ones (sandbox/protobuf.h): `kubectl create deployment` (kubectl 1.32 and
// 1.33 send apps/v1 as protobuf), ReplicaSets, StatefulSets, DaemonSets, and
// `create service|job|cronjob|priorityclass`. Each body is built here field by
// field; the numbers are those of kubernetes' generated.proto, named at each.
#include <catch2/catch.hpp>

#include "sandbox/protobuf.h"
#include "tests/sandbox/api_test_support.h"
#include "tests/sandbox/protobuf_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::envelope;
using testing::field;
using testing::number_field;
using testing::request;

json decoded(const std::string& api_version, const std::string& kind, const std::string& raw) {
  std::string error;
  const auto object = decode_protobuf_object(envelope(api_version, kind, raw), &error);
  INFO(error);
  REQUIRE(object);
  return *object;
}

// ObjectMeta {name = 1, labels = 11 (map entry {key = 1, value = 2}), creationTimestamp = 8 (zero Time)}.
std::string meta(const std::string& name, const std::string& app = "") {
  std::string out = field(1, name) + field(8, "");
  if (!app.empty()) out += field(11, field(1, "app") + field(2, app));
  return out;
}

// LabelSelector {matchLabels = 1}.
std::string selector(const std::string& app) { return field(1, field(1, "app") + field(2, app)); }

// PodTemplateSpec {metadata = 1, spec = 2: PodSpec {containers = 2: Container {name = 1, image = 2,
// resources = 8 (empty)}, restartPolicy = 3}}.
std::string pod_template(const std::string& app, const std::string& image, const std::string& restart = "") {
  std::string spec = field(2, field(1, app) + field(2, image) + field(8, ""));
  if (!restart.empty()) spec += field(3, restart);
  return field(1, meta("", app)) + field(2, spec);
}

}  // namespace

TEST_CASE("protobuf: kubectl create deployment's body is decoded and created", "[sandbox][protobuf][apps]") {
  // Deployment {metadata = 1, spec = 2, status = 3}; DeploymentSpec {replicas = 1 (*int32), selector = 2,
  // template = 3, strategy = 4 (empty)}: what `kubectl create deployment web --image=nginx` sends.
  const std::string spec =
      number_field(1, 1) + field(2, selector("web")) + field(3, pod_template("web", "nginx")) + field(4, "");
  const std::string raw = field(1, meta("web", "web")) + field(2, spec) + field(3, "");
  const json deployment = decoded("apps/v1", "Deployment", raw);
  CHECK(deployment["kind"] == "Deployment");
  CHECK(deployment["apiVersion"] == "apps/v1");
  CHECK(deployment["spec"]["replicas"] == 1);
  CHECK(deployment["spec"]["selector"] == json{{"matchLabels", {{"app", "web"}}}});
  CHECK(deployment["spec"]["strategy"] == json::object());
  CHECK(deployment["spec"]["template"]["spec"]["containers"] ==
        json::array({{{"name", "web"}, {"image", "nginx"}, {"resources", json::object()}}}));
  CHECK_FALSE(deployment["metadata"].contains("creationTimestamp"));  // a zero Time is omitted, as in JSON

  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})")).status == 201);
  const auto created = c->handle(request("POST", "/apis/apps/v1/namespaces/team/deployments",
                                         envelope("apps/v1", "Deployment", raw), {}, "application/vnd.kubernetes.protobuf"));
  CHECK(created.status == 201);
  CHECK(body_of(created)["spec"]["strategy"]["type"] == "RollingUpdate");
}

TEST_CASE("protobuf: a pointer's zero is kept, an IntOrString is a number or a string", "[sandbox][protobuf][apps]") {
  // RollingUpdateDeployment {maxUnavailable = 1, maxSurge = 2}: IntOrString {type = 1 (0 int, 1 string),
  // intVal = 2, strVal = 3}.
  const std::string rolling = field(1, number_field(1, 0) + number_field(2, 0)) +
                              field(2, number_field(1, 1) + field(3, "50%"));
  // DeploymentStrategy {type = 1, rollingUpdate = 2}; replicas = 1 set to 0; minReadySeconds = 5 (int32, not a
  // pointer) 0 is omitted; progressDeadlineSeconds = 9.
  const std::string spec = number_field(1, 0) + field(2, selector("web")) + field(3, pod_template("web", "nginx")) +
                           field(4, field(1, "RollingUpdate") + field(2, rolling)) + number_field(5, 0) +
                           number_field(9, 120);
  const json deployment = decoded("apps/v1", "Deployment", field(1, meta("web")) + field(2, spec));
  CHECK(deployment["spec"]["replicas"] == 0);
  CHECK_FALSE(deployment["spec"].contains("minReadySeconds"));
  CHECK(deployment["spec"]["progressDeadlineSeconds"] == 120);
  CHECK(deployment["spec"]["strategy"]["rollingUpdate"] == json{{"maxUnavailable", 0}, {"maxSurge", "50%"}});
  // Negative int32s travel sign-extended: -1 comes back as -1.
  const json negative = decoded("apps/v1", "ReplicaSet", field(1, meta("r")) + field(2, number_field(1, -1)));
  CHECK(negative["spec"]["replicas"] == -1);
}

TEST_CASE("protobuf: ReplicaSets, StatefulSets and DaemonSets", "[sandbox][protobuf][apps]") {
  // ReplicaSetSpec {replicas = 1, selector = 2, template = 3, minReadySeconds = 4}.
  json rs = decoded("apps/v1", "ReplicaSet",
                    field(1, meta("rs")) + field(2, number_field(1, 3) + field(2, selector("a")) +
                                                        field(3, pod_template("a", "busybox")) + number_field(4, 5)));
  CHECK(rs["spec"]["replicas"] == 3);
  CHECK(rs["spec"]["minReadySeconds"] == 5);
  CHECK(rs["spec"]["template"]["metadata"]["labels"] == json{{"app", "a"}});

  // StatefulSetSpec {serviceName = 5, podManagementPolicy = 6, updateStrategy = 7 {type = 1, rollingUpdate = 2
  // {partition = 1}}, persistentVolumeClaimRetentionPolicy = 10 {whenDeleted = 1, whenScaled = 2}}.
  const std::string sts_spec = number_field(1, 2) + field(2, selector("db")) + field(3, pod_template("db", "postgres")) +
                               field(5, "db") + field(6, "Parallel") +
                               field(7, field(1, "RollingUpdate") + field(2, number_field(1, 0))) +
                               field(10, field(1, "Delete") + field(2, "Retain"));
  json sts = decoded("apps/v1", "StatefulSet", field(1, meta("db")) + field(2, sts_spec));
  CHECK(sts["spec"]["serviceName"] == "db");
  CHECK(sts["spec"]["podManagementPolicy"] == "Parallel");
  CHECK(sts["spec"]["updateStrategy"] == json{{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}});
  CHECK(sts["spec"]["persistentVolumeClaimRetentionPolicy"] == json{{"whenDeleted", "Delete"}, {"whenScaled", "Retain"}});

  // DaemonSetSpec {selector = 1, template = 2, updateStrategy = 3 {type = 1}}; PodSpec nodeSelector = 7 (map).
  const std::string node_selector = field(7, field(1, "pool") + field(2, "gpu"));
  const std::string ds_template = field(1, meta("", "agent")) +
                                  field(2, field(2, field(1, "agent") + field(2, "agent:1")) + node_selector);
  json ds = decoded("apps/v1", "DaemonSet",
                    field(1, meta("agent")) + field(2, field(1, selector("agent")) + field(2, ds_template) +
                                                           field(3, field(1, "OnDelete"))));
  CHECK(ds["spec"]["updateStrategy"] == json{{"type", "OnDelete"}});
  CHECK(ds["spec"]["template"]["spec"]["nodeSelector"] == json{{"pool", "gpu"}});
}

TEST_CASE("protobuf: a container's ports, env and resources", "[sandbox][protobuf][apps]") {
  // Container {ports = 6 {name = 1, containerPort = 3, protocol = 4}, env = 7 {name = 1, value = 2},
  // resources = 8 {limits = 1, requests = 2: map<string, Quantity {string = 1}>}, imagePullPolicy = 14}.
  const std::string container = field(1, "web") + field(2, "nginx") +
                                field(6, field(1, "http") + number_field(3, 8080) + field(4, "TCP")) +
                                field(7, field(1, "MODE") + field(2, "fast")) +
                                field(8, field(1, field(1, "cpu") + field(2, field(1, "500m"))) +
                                             field(2, field(1, "memory") + field(2, field(1, "64Mi")))) +
                                field(14, "IfNotPresent");
  const std::string pod = field(1, meta("", "web")) + field(2, field(2, container));
  const json rs = decoded("apps/v1", "ReplicaSet", field(1, meta("web")) + field(2, field(3, pod)));
  const json c = rs["spec"]["template"]["spec"]["containers"][0];
  CHECK(c["ports"] == json::array({{{"name", "http"}, {"containerPort", 8080}, {"protocol", "TCP"}}}));
  CHECK(c["env"] == json::array({{{"name", "MODE"}, {"value", "fast"}}}));
  CHECK(c["resources"] == json{{"limits", {{"cpu", "500m"}}}, {"requests", {{"memory", "64Mi"}}}});
  CHECK(c["imagePullPolicy"] == "IfNotPresent");
}

TEST_CASE("protobuf: what kubectl create service, job, cronjob and priorityclass send",
          "[sandbox][protobuf]") {
  // Service {spec = 2: ServiceSpec {ports = 1: ServicePort {name = 1, protocol = 2, port = 3, targetPort = 4},
  // selector = 2, type = 4}}: `kubectl create service clusterip web --tcp=80:8080`.
  const std::string port = field(1, "80-8080") + field(2, "TCP") + number_field(3, 80) +
                           field(4, number_field(1, 0) + number_field(2, 8080));
  const json service = decoded("v1", "Service",
                               field(1, meta("web")) +
                                   field(2, field(1, port) + field(2, field(1, "app") + field(2, "web")) +
                                                field(4, "ClusterIP")) +
                                   field(3, field(1, "")));
  CHECK(service["spec"]["ports"] ==
        json::array({{{"name", "80-8080"}, {"protocol", "TCP"}, {"port", 80}, {"targetPort", 8080}}}));
  CHECK(service["spec"]["selector"] == json{{"app", "web"}});
  CHECK(service["spec"]["type"] == "ClusterIP");
  CHECK(service["status"] == json::object());  // a client's status is the server's to write

  // Job {spec = 2: JobSpec {template = 6, backoffLimit = 7}}: `kubectl create job pi --image=perl`.
  const std::string job_spec = field(6, pod_template("pi", "perl", "Never")) + number_field(7, 4);
  const json job = decoded("batch/v1", "Job", field(1, meta("pi")) + field(2, job_spec));
  CHECK(job["spec"]["backoffLimit"] == 4);
  CHECK(job["spec"]["template"]["spec"]["restartPolicy"] == "Never");

  // CronJob {spec = 2: CronJobSpec {schedule = 1, jobTemplate = 5: JobTemplateSpec {metadata = 1, spec = 2}}}.
  const json cron = decoded("batch/v1", "CronJob",
                            field(1, meta("nightly")) +
                                field(2, field(1, "0 3 * * *") + field(5, field(1, meta("nightly")) + field(2, job_spec))));
  CHECK(cron["spec"]["schedule"] == "0 3 * * *");
  CHECK(cron["spec"]["jobTemplate"]["spec"]["backoffLimit"] == 4);

  // PriorityClass {metadata = 1, value = 2, globalDefault = 3, description = 4, preemptionPolicy = 5}.
  const json priority = decoded("scheduling.k8s.io/v1", "PriorityClass",
                                field(1, meta("high")) + number_field(2, 1000) + number_field(3, 0) +
                                    field(4, "important") + field(5, "Never"));
  CHECK(priority["value"] == 1000);
  CHECK(priority["globalDefault"] == false);
  CHECK(priority["description"] == "important");
  CHECK(priority["preemptionPolicy"] == "Never");
}

}  // namespace mkq::sandbox
