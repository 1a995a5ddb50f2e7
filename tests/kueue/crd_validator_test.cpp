// The structural CRD validator of tests/support: its YAML reading, its rules
// on small hand-written CRDs, and its verdicts with Kueue's released CRDs
// (../shared/kueue/crds; tests tagged [crds] are skipped when it is absent, see
// tests/support/crd_test_main.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/crd_validator.h"

namespace ts = mkq::test_support;
using Json = nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// The single document of a YAML text.
Json object_of(const std::string& yaml) {
  const auto read = ts::yaml_to_json(yaml);
  INFO(joined(read.errors));
  REQUIRE(read.errors.empty());
  REQUIRE(read.documents.size() == 1);
  return read.documents.front();
}

const ts::CrdCatalog& kueue_crds() {
  static const ts::CrdCatalog catalog = ts::CrdCatalog::load_directory(ts::kueue_crds_dir());
  return catalog;
}

// Expects exactly one refusal at `path` whose message contains `words`.
void expect_refused(const ts::ValidationResult& result, const std::string& path, const std::string& words) {
  INFO(result.summary());
  REQUIRE(result.outcome == ts::Outcome::Invalid);
  CHECK(result.errors.size() == 1);
  REQUIRE(result.has_error_at(path));
  const auto error = std::find_if(result.errors.begin(), result.errors.end(),
                                  [&](const ts::SchemaError& e) { return e.path == path; });
  CHECK_THAT(error->message, Catch::Contains(words));
}

void expect_valid(const ts::ValidationResult& result) {
  INFO(result.summary());
  CHECK(result.outcome == ts::Outcome::Valid);
}

// A small CRD exercising every rule, independent of ../shared.
const char* const kWidgetCrd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.mkq.dev
spec:
  group: example.mkq.dev
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: false
    storage: false
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata:
            type: object
            properties:
              name: {type: string, pattern: '^[^z]'}
          spec:
            type: object
            required: [size, mode]
            properties:
              size: {type: integer, minimum: 1, maximum: 100}
              count: {type: integer, format: int32}
              ratio: {type: number, minimum: 0, exclusiveMinimum: true, multipleOf: 0.5}
              mode:
                type: string
                default: Fast
                enum: [Fast, Slow]
              code: {type: string, pattern: '(?i)^[a-z]+$', minLength: 2, maxLength: 5}
              exotic: {type: string, pattern: '^(?P<word>[a-z]+)$'}
              note: {type: string, nullable: true}
              when: {type: string, format: date-time}
              blob: {type: string, format: byte}
              amount:
                x-kubernetes-int-or-string: true
                anyOf: [{type: integer}, {type: string}]
                pattern: '^[0-9]+(Gi|Mi)?$'
              limits:
                type: object
                maxProperties: 2
                minProperties: 1
                additionalProperties: {type: integer, minimum: 0}
              closed:
                type: object
                additionalProperties: false
                properties:
                  a: {type: string}
              free:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              template:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
              tags:
                type: array
                maxItems: 3
                items: {type: string}
                x-kubernetes-list-type: set
              ports:
                type: array
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
              choice:
                type: object
                properties:
                  left: {type: string}
                  right: {type: string}
                oneOf:
                - required: [left]
                - required: [right]
              checked:
                type: string
                x-kubernetes-validations:
                - rule: self == 'never'
                  message: a CEL rule this validator skips
)";

const ts::CrdCatalog& widgets() {
  static const ts::CrdCatalog catalog = ts::CrdCatalog::load_text(kWidgetCrd);
  return catalog;
}

Json widget(const std::string& spec_yaml) {
  Json object = object_of("apiVersion: example.mkq.dev/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\n");
  object["spec"] = object_of(spec_yaml);
  return object;
}

}  // namespace

// ---------------------------------------------------------------------------
// YAML as kubectl reads it.

TEST_CASE("crd yaml: plain scalars resolve as in YAML 1.1 (go-yaml), quoted ones stay strings") {
  const Json doc = object_of(R"(
a: 9
b: "9"
c: 36Gi
d: yes
e: "yes"
f: off
g: ~
h: 010
i: 0x1F
j: 1_000
k: 1.5
l: 1e3
m: -7
t: true
o: 'null'
p: |
  two
  lines
q: !!str 12
r: 0.5Gi
on: key
012: key
"no": key
)");
  CHECK(doc["a"] == 9);
  CHECK(doc["a"].is_number_integer());
  CHECK(doc["b"] == "9");
  CHECK(doc["c"] == "36Gi");
  CHECK(doc["d"] == true);
  CHECK(doc["e"] == "yes");
  CHECK(doc["f"] == false);
  CHECK(doc["g"].is_null());
  CHECK(doc["h"] == 8);
  CHECK(doc["i"] == 31);
  CHECK(doc["j"] == 1000);
  CHECK(doc["k"] == 1.5);
  CHECK(doc["l"] == 1000.0);
  CHECK(doc["m"] == -7);
  CHECK(doc["t"] == true);
  CHECK(doc["o"] == "null");
  CHECK(doc["p"] == "two\nlines\n");
  CHECK(doc["q"] == "12");
  CHECK(doc["r"] == "0.5Gi");
  // Plain keys resolve too, then become JSON text (as sigs.k8s.io/yaml does).
  CHECK(doc["true"] == "key");
  CHECK(doc["10"] == "key");
  CHECK(doc["no"] == "key");
  CHECK(object_of("n: 1\ny: 2\n") == Json{{"false", 1}, {"true", 2}});
}

TEST_CASE("crd yaml: empty documents are dropped - duplicate keys, .inf and syntax errors are reported") {
  const auto stream = ts::yaml_to_json("---\n# nothing\n---\na: 1\n---\n---\nb: 2\n");
  CHECK(stream.errors.empty());
  CHECK(stream.documents.size() == 2);

  const auto duplicate = ts::yaml_to_json("spec:\n  a: 1\n  a: 2\n");
  REQUIRE(duplicate.errors.size() == 1);
  CHECK_THAT(duplicate.errors[0], Catch::Contains("spec.a") && Catch::Contains("already defined"));

  const auto infinite = ts::yaml_to_json("x: .inf\n");
  REQUIRE(infinite.errors.size() == 1);
  CHECK_THAT(infinite.errors[0], Catch::Contains("not a JSON number"));

  const auto broken = ts::yaml_to_json("a: [1, 2\n");
  CHECK(broken.documents.empty());
  CHECK(broken.errors.size() == 1);
}

// ---------------------------------------------------------------------------
// The rules, on a hand-written CRD.

TEST_CASE("crd rules: the hand-written CRD loads - an unsupported pattern is listed and not checked") {
  INFO(joined(widgets().load_errors()));
  CHECK(widgets().load_errors().empty());
  CHECK(widgets().served_kinds() == std::vector<std::string>{"example.mkq.dev/v1 Widget"});
  REQUIRE(widgets().unsupported_patterns().size() == 1);
  CHECK_THAT(widgets().unsupported_patterns()[0], Catch::Contains("(?P<word>"));
  CHECK(widgets().skipped_cel_rules() == 1);
  expect_valid(widgets().validate(widget("{size: 3, mode: Fast, exotic: '!!! not checked'}")));
}

TEST_CASE("crd rules: a complete valid object validates, from nlohmann::json and ordered_json") {
  const Json object = widget(R"(
size: 100
ratio: 1.5
mode: Slow
code: AbC
note: null
when: "2024-05-01T10:00:00Z"
blob: aGVsbG8=
amount: 10Gi
limits: {gpu: 2}
closed: {a: x}
free: {anything: [1, {deep: true}]}
template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: []}}
tags: [a, b]
ports: [{port: 80}, {port: 80, protocol: UDP}]
choice: {left: one}
checked: whatever
)");
  expect_valid(widgets().validate(object));
  expect_valid(widgets().validate(nlohmann::ordered_json(object)));
}

TEST_CASE("crd rules: a required field with a default may be left out - one without may not") {
  expect_valid(widgets().validate(widget("{size: 1}")));
  expect_refused(widgets().validate(widget("{mode: Fast}")), "spec.size", "Required value");
}

TEST_CASE("crd rules: types, int-or-string and nullable") {
  expect_refused(widgets().validate(widget("{size: '3'}")), "spec.size", "must be of type integer, not string");
  expect_refused(widgets().validate(widget("{size: 2.5}")), "spec.size", "must be of type integer, not number");
  expect_valid(widgets().validate(widget("{size: 2.0}")));  // an integral number is an integer in JSON
  expect_refused(widgets().validate(widget("{size: 1, amount: true}")), "spec.amount",
                 "must be an integer or a string, not boolean");
  expect_valid(widgets().validate(widget("{size: 1, amount: 7}")));
  expect_refused(widgets().validate(widget("{size: 1, code: null}")), "spec.code", "must not be null");
  expect_refused(widgets().validate(widget("{size: 1, tags: a}")), "spec.tags", "must be of type array, not string");
}

TEST_CASE("crd rules: enum, pattern (with (?i) as icase), lengths, ranges, formats") {
  expect_refused(widgets().validate(widget("{size: 1, mode: Medium}")), "spec.mode",
                 R"(Unsupported value: "Medium": supported values: "Fast", "Slow")");
  expect_refused(widgets().validate(widget("{size: 1, code: ab1}")), "spec.code", "should match");
  expect_refused(widgets().validate(widget("{size: 1, code: a}")), "spec.code", "at least 2 characters");
  expect_refused(widgets().validate(widget("{size: 1, code: abcdef}")), "spec.code", "Too long");
  expect_refused(widgets().validate(widget("{size: 1, amount: 10G}")), "spec.amount", "should match");
  expect_refused(widgets().validate(widget("{size: 0}")), "spec.size", "greater than or equal to 1");
  expect_refused(widgets().validate(widget("{size: 101}")), "spec.size", "less than or equal to 100");
  expect_refused(widgets().validate(widget("{size: 1, ratio: 0}")), "spec.ratio", "greater than 0");
  expect_refused(widgets().validate(widget("{size: 1, ratio: 0.7}")), "spec.ratio", "multiple of 0.5");
  expect_refused(widgets().validate(widget("{size: 1, when: yesterday}")), "spec.when", "format date-time");
  expect_refused(widgets().validate(widget("{size: 1, blob: 'not base64!'}")), "spec.blob", "format byte");
  expect_valid(widgets().validate(widget("{size: 1, count: 2147483647}")));
  expect_refused(widgets().validate(widget("{size: 1, count: 2147483648}")), "spec.count", "format int32");
}

TEST_CASE("crd rules: unknown fields are errors, unless preserved, embedded or additionalProperties") {
  expect_refused(widgets().validate(widget("{size: 1, colour: red}")), "spec.colour", "unknown field");
  expect_refused(widgets().validate(widget("{size: 1, closed: {b: x}}")), "spec.closed.b", "unknown field");
  expect_refused(widgets().validate(widget("{size: 1, limits: {gpu: -1}}")), "spec.limits[gpu]",
                 "greater than or equal to 0");
  expect_refused(widgets().validate(widget("{size: 1, limits: {a: 1, b: 2, c: 3}}")), "spec.limits",
                 "Too many: 3: must have at most 2 properties");
  expect_refused(widgets().validate(widget("{size: 1, limits: {}}")), "spec.limits", "at least 1 properties");
  expect_refused(widgets().validate(widget("{size: 1, template: {apiVersion: v1, extra: 1}}")),
                 "spec.template.extra", "unknown field");
  auto top = widget("{size: 1}");
  top["status"] = Json::object();
  expect_refused(widgets().validate(top), "status", "unknown field");
}

TEST_CASE("crd rules: list types set and map, item limits, oneOf") {
  expect_refused(widgets().validate(widget("{size: 1, tags: [a, b, a]}")), "spec.tags[2]", R"(Duplicate value: "a")");
  expect_refused(widgets().validate(widget("{size: 1, tags: [a, b, c, d]}")), "spec.tags",
                 "Too many: 4: must have at most 3 items");
  expect_refused(widgets().validate(widget("{size: 1, ports: [{port: 80}, {port: 81}, {port: 80, protocol: TCP}]}")),
                 "spec.ports[2]", "Duplicate value");
  // protocol defaults to TCP, so two items without it share their keys.
  expect_refused(widgets().validate(widget("{size: 1, ports: [{port: 80}, {port: 80}]}")), "spec.ports[1]",
                 "Duplicate value");
  expect_refused(widgets().validate(widget("{size: 1, ports: [{protocol: UDP}]}")), "spec.ports[0].port",
                 "Required value");
  expect_refused(widgets().validate(widget("{size: 1, choice: {left: a, right: b}}")), "spec.choice", "exactly one");
  expect_refused(widgets().validate(widget("{size: 1, choice: {}}")), "spec.choice", "exactly one");
}

TEST_CASE("crd rules: CEL rules (x-kubernetes-validations) are skipped: a value breaking one validates") {
  expect_valid(widgets().validate(widget("{size: 1, checked: not-never}")));
}

TEST_CASE("crd rules: apiVersion, kind and served versions") {
  auto object = widget("{size: 1}");
  object["apiVersion"] = "example.mkq.dev/v1alpha1";
  expect_refused(widgets().validate(object), "apiVersion", "v1alpha1 of Widget is not served (served: v1)");
  object["apiVersion"] = "example.mkq.dev/v1";
  object["kind"] = "Gadget";
  expect_refused(widgets().validate(object), "kind", "no kind Gadget in group example.mkq.dev");
  const auto job = widgets().validate(object_of("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"));
  CHECK(job.outcome == ts::Outcome::NoSchema);
  CHECK(job.note == "no schema for batch/v1 Job");
  expect_refused(widgets().validate(object_of("kind: Widget\n")), "apiVersion", "Required value");
  expect_refused(widgets().validate(Json::array()), "", "must be of type object");
}

TEST_CASE("crd rules: metadata is checked as ObjectMeta") {
  auto object = widget("{size: 1}");
  object["metadata"] = object_of(R"(
name: w
namespace: team-a
labels: {app.kubernetes.io/managed-by: mkq, mkq.dev/policy: quickstart, empty: ""}
annotations: {example.com/note: "any text: at all"}
finalizers: [example.com/cleanup]
creationTimestamp: null
)");
  expect_valid(widgets().validate(object));

  const auto refused = [&](const std::string& meta, const std::string& path, const std::string& words,
                           ts::ValidateOptions options = {}) {
    auto broken = widget("{size: 1}");
    broken["metadata"] = object_of(meta);
    INFO(meta);
    expect_refused(widgets().validate(broken, options), path, words);
  };
  refused("{namespace: ns}", "metadata.name", "name or generateName is required");
  refused("{name: Bad_Name}", "metadata.name", "RFC 1123 subdomain");
  refused("{name: " + std::string(254, 'a') + "}", "metadata.name", "no more than 253");
  refused("{name: w, namespace: Team.A}", "metadata.namespace", "RFC 1123 label");
  refused("{name: w}", "metadata.namespace", "Required value", ts::ValidateOptions{true});
  refused("{name: w, nmae: x}", "metadata.nmae", "unknown field");
  refused("{name: w, labels: {team: a b}}", "metadata.labels[team]", "a valid label");
  refused("{name: w, labels: {'bad key!': a}}", "metadata.labels[bad key!]", "name part");
  refused("{name: w, labels: {team: 1}}", "metadata.labels[team]", "must be of type string");
  refused("{generateName: Bad-}", "metadata.generateName", "RFC 1123 subdomain");
  refused("{name: zed}", "metadata.name", "should match '^[^z]'");  // the CRD's own constraint
  auto generated = widget("{size: 1}");
  generated["metadata"] = object_of("{generateName: job-}");
  expect_valid(widgets().validate(generated));
  auto missing = widget("{size: 1}");
  missing.erase("metadata");
  expect_refused(widgets().validate(missing), "metadata", "Required value");
}

// ---------------------------------------------------------------------------
// Kueue's released CRDs.

TEST_CASE("crd kueue: every CRD loads and every Kueue kind is served as v1beta2", "[crds]") {
  const auto& catalog = kueue_crds();
  INFO(joined(catalog.load_errors()));
  CHECK(catalog.load_errors().empty());
  const auto kinds = catalog.served_kinds();
  for (const char* kind : {"AdmissionCheck", "ClusterQueue", "Cohort", "LocalQueue", "MultiKueueCluster",
                           "MultiKueueConfig", "ProvisioningRequestConfig", "ResourceFlavor", "Topology",
                           "WorkloadPriorityClass", "Workload"}) {
    INFO(kind);
    CHECK(std::count(kinds.begin(), kinds.end(), std::string("kueue.x-k8s.io/v1beta2 ") + kind) == 1);
  }
  CHECK(catalog.skipped_cel_rules() > 0);
}

TEST_CASE("crd kueue: every pattern of the CRDs compiles as an ECMAScript std::regex ((?i) as icase)", "[crds]") {
  INFO(joined(kueue_crds().unsupported_patterns()));
  CHECK(kueue_crds().unsupported_patterns().empty());
}

TEST_CASE("crd kueue: every object of ../shared/kueue/examples validates - other kinds have no schema", "[crds]") {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(ts::kueue_examples_dir())) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  int kueue_objects = 0;
  int skipped = 0;
  for (const auto& file : files) {
    const auto read = ts::read_yaml_file(file);
    INFO(file.string());
    INFO(joined(read.errors));
    CHECK(read.errors.empty());
    for (const auto& object : read.documents) {
      const auto result = kueue_crds().validate(object);
      INFO(object.value("kind", "?") << " " << object["metadata"].value("name", "?"));
      INFO(result.summary());
      if (result.no_schema()) {
        CHECK(object.value("apiVersion", "") == "batch/v1");
        CHECK(result.note == "no schema for batch/v1 Job");
        ++skipped;
        continue;
      }
      CHECK(result.valid());
      ++kueue_objects;
    }
  }
  CHECK(kueue_objects >= 30);
  CHECK(skipped == 1);
}

namespace {

Json cluster_queue() {
  return object_of(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cluster-queue
  labels: {app.kubernetes.io/managed-by: mkq}
spec:
  namespaceSelector: {}
  queueingStrategy: BestEffortFIFO
  resourceGroups:
  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 9
      - name: memory
        nominalQuota: 36Gi
  admissionChecksStrategy:
    admissionChecks:
    - name: sample-multikueue
)");
}

}  // namespace

TEST_CASE("crd kueue: broken objects are refused at the right field path", "[crds]") {
  const auto& crds = kueue_crds();
  expect_valid(crds.validate(cluster_queue()));
  const std::string flavor0 = "spec.resourceGroups[0].flavors[0]";

  SECTION("a bad enum value") {
    auto cq = cluster_queue();
    cq["spec"]["queueingStrategy"] = "Fastest";
    expect_refused(crds.validate(cq), "spec.queueingStrategy", "Unsupported value: \"Fastest\"");
  }
  SECTION("a quantity that does not match the quantity pattern") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][1]["nominalQuota"] = "36 GiB";
    expect_refused(crds.validate(cq), flavor0 + ".resources[1].nominalQuota", "should match");
  }
  SECTION("a quantity of the wrong type") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = true;
    expect_refused(crds.validate(cq), flavor0 + ".resources[0].nominalQuota", "an integer or a string");
  }
  SECTION("an unknown field") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0]["flavors"][0]["quota"] = 5;
    expect_refused(crds.validate(cq), flavor0 + ".quota", "unknown field");
  }
  SECTION("an unknown top-level field") {
    auto cq = cluster_queue();
    cq["specs"] = Json::object();
    expect_refused(crds.validate(cq), "specs", "unknown field");
  }
  SECTION("a missing required field") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0].erase("coveredResources");
    expect_refused(crds.validate(cq), "spec.resourceGroups[0].coveredResources", "Required value");
  }
  SECTION("a missing required field in a list item") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0].erase("nominalQuota");
    expect_refused(crds.validate(cq), flavor0 + ".resources[0].nominalQuota", "Required value");
  }
  SECTION("a value of the wrong type") {
    auto cq = cluster_queue();
    cq["spec"]["cohortName"] = 5;
    expect_refused(crds.validate(cq), "spec.cohortName", "must be of type string, not integer");
  }
  SECTION("a name too long") {
    auto cq = cluster_queue();
    cq["spec"]["cohortName"] = std::string(254, 'a');
    expect_refused(crds.validate(cq), "spec.cohortName", "Too long: may not be more than 253");
  }
  SECTION("a duplicate list-map key (two flavors of the same name)") {
    auto cq = cluster_queue();
    auto& flavors = cq["spec"]["resourceGroups"][0]["flavors"];
    const Json first = flavors[0];
    flavors.push_back(first);
    expect_refused(crds.validate(cq), "spec.resourceGroups[0].flavors[1]", R"(Duplicate value: {"name":"default-flavor"})");
  }
  SECTION("a duplicate list-map key (two admission checks of the same name)") {
    auto cq = cluster_queue();
    auto& checks = cq["spec"]["admissionChecksStrategy"]["admissionChecks"];
    const Json first = checks[0];
    checks.push_back(first);
    expect_refused(crds.validate(cq), "spec.admissionChecksStrategy.admissionChecks[1]", "Duplicate value");
  }
  SECTION("too many items") {
    auto cq = cluster_queue();
    auto& groups = cq["spec"]["resourceGroups"];
    const Json first = groups[0];
    for (int i = 0; i < 16; ++i) groups.push_back(first);
    expect_refused(crds.validate(cq), "spec.resourceGroups", "Too many: 17: must have at most 16 items");
  }
  SECTION("too few items") {
    auto cq = cluster_queue();
    cq["spec"]["resourceGroups"][0]["coveredResources"] = Json::array();
    expect_refused(crds.validate(cq), "spec.resourceGroups[0].coveredResources", "at least 1 items");
  }
  SECTION("a namespace on a cluster-scoped kind") {
    auto cq = cluster_queue();
    cq["metadata"]["namespace"] = "default";
    expect_refused(crds.validate(cq), "metadata.namespace", "cluster-scoped");
  }
  SECTION("a name that is not a DNS-1123 subdomain") {
    auto cq = cluster_queue();
    cq["metadata"]["name"] = "Cluster_Queue";
    expect_refused(crds.validate(cq), "metadata.name", "RFC 1123 subdomain");
  }
  SECTION("a version that is not served") {
    auto cq = cluster_queue();
    cq["apiVersion"] = "kueue.x-k8s.io/v1alpha1";
    expect_refused(crds.validate(cq), "apiVersion", "not served (served: v1beta1, v1beta2)");
  }
  SECTION("a Kueue kind that does not exist") {
    auto cq = cluster_queue();
    cq["kind"] = "ClusterQueues";
    expect_refused(crds.validate(cq), "kind", "no kind ClusterQueues in group kueue.x-k8s.io");
  }
}

TEST_CASE("crd kueue: more refusals (MultiKueueConfig, ResourceFlavor, LocalQueue)", "[crds]") {
  const auto& crds = kueue_crds();
  auto config = object_of(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueConfig
metadata: {name: multikueue-config}
spec:
  clusters: [worker1, worker2]
)");
  expect_valid(crds.validate(config));
  for (int i = 3; i <= 21; ++i) config["spec"]["clusters"].push_back("worker" + std::to_string(i));
  expect_refused(crds.validate(config), "spec.clusters", "Too many: 21: must have at most 20 items");

  auto flavor = object_of(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: spot}
spec:
  nodeLabels: {a: "1", b: "2", c: "3", d: "4", e: "5", f: "6", g: "7", h: "8"}
)");
  expect_valid(crds.validate(flavor));
  flavor["spec"]["nodeLabels"]["i"] = "9";
  expect_refused(crds.validate(flavor), "spec.nodeLabels", "Too many: 9: must have at most 8 properties");

  auto queue = object_of(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: user-queue}
spec: {clusterQueue: cluster-queue}
)");
  expect_valid(crds.validate(queue));
  expect_refused(crds.validate(queue, ts::ValidateOptions{true}), "metadata.namespace", "Required value");
  queue["metadata"]["namespace"] = "default";
  queue["spec"]["clusterQueue"] = "Cluster_Queue";
  expect_refused(crds.validate(queue), "spec.clusterQueue", "should match");

  const auto config_map =
      crds.validate(object_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kueue-manager-config}\n"));
  CHECK(config_map.no_schema());
  CHECK(config_map.note == "no schema for v1 ConfigMap");
}

TEST_CASE("crd kueue: CEL rules (x-kubernetes-validations) are skipped, so these objects validate", "[crds]") {
  // MultiKueueConfig's "clusters must be unique" and ClusterQueue's
  // flavorFungibility "preference needs TryNextFlavor" are CEL rules: not checked.
  expect_valid(kueue_crds().validate(object_of(R"(
apiVersion: kueue.x-k8s.io/v1beta2
kind: MultiKueueConfig
metadata: {name: multikueue-config}
spec: {clusters: [worker1, worker1]}
)")));
  auto cq = cluster_queue();
  cq["spec"]["flavorFungibility"] = Json{{"preference", "BorrowingOverPreemption"}, {"whenCanBorrow", "MayStopSearch"}};
  expect_valid(kueue_crds().validate(cq));
}
