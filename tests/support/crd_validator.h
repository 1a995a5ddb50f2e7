// A structural OpenAPI v3 validator for Kubernetes objects, written for mkq's
// tests: it loads Kueue's released CustomResourceDefinitions (the test oracle
// in ../shared/kueue/crds) and checks a JSON object against the schema of its
// apiVersion/kind the way the API server does on `kubectl apply
// --validate=strict` (fieldValidation=Strict), so that a rendered object that
// would be refused fails a test.
//
// Checked: the types object, array, string, integer, number, boolean;
// x-kubernetes-int-or-string; enum; pattern (Go regexp syntax run as
// ECMAScript std::regex with search semantics like Go's MatchString; a leading
// "(?i)" becomes std::regex::icase; a pattern std::regex cannot compile is
// listed by unsupported_patterns() and not checked); minLength/maxLength (in
// code points); minimum/maximum (and exclusive forms), multipleOf;
// minItems/maxItems, uniqueItems; minProperties/maxProperties; required (a
// missing field that has a default is accepted: the server would default it);
// properties, additionalProperties (a schema, true or false);
// x-kubernetes-preserve-unknown-fields; x-kubernetes-embedded-resource;
// nullable; x-kubernetes-list-type set (unique items) and map (the
// x-kubernetes-list-map-keys present and unique); anyOf/allOf/oneOf/not as
// value constraints; format int32, int64, date-time, date, byte, uuid.
// An unknown field is an error, as with fieldValidation=Strict.
// metadata is checked as ObjectMeta basics: known fields only, name required
// unless generateName and a DNS-1123 subdomain (plus the CRD's own constraints
// on metadata.name/generateName, if any), namespace a DNS-1123 label and
// absent on cluster-scoped kinds (required for namespaced kinds on request),
// labels and annotations with qualified-name keys, label values valid.
//
// Not checked: CEL rules (x-kubernetes-validations) are skipped entirely, so
// an object breaking only a CEL rule validates; defaults are not applied;
// immutability and status. Stricter than the server: a null value is an error
// unless the schema is nullable, and a namespace on a cluster-scoped kind is an
// error (the server would drop both silently; in rendered output both are bugs).
//
// A kind without a CRD (batch/v1 Job, v1 ConfigMap, RBAC...) is not an error:
// the result is NoSchema with a note "no schema for batch/v1 Job". A kind of a
// group the catalog knows but without that kind, or a version not served, is
// an error.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mkq::test_support {

// One problem of an object: where, as Kubernetes writes a field path
// ("spec.resourceGroups[0].flavors[0].name", "metadata.labels[team]"; empty
// for the object itself), and what.
struct SchemaError {
  std::string path;
  std::string message;
};

// "spec.cohortName: must be of type string, not integer" ("<object>: ..." for
// the object itself).
std::string to_string(const SchemaError& error);

enum class Outcome { Valid, Invalid, NoSchema };

struct ValidationResult {
  Outcome outcome = Outcome::Valid;
  std::vector<SchemaError> errors;  // non-empty exactly when Invalid
  std::string note;                 // when NoSchema: "no schema for batch/v1 Job"

  bool valid() const { return outcome == Outcome::Valid; }
  bool no_schema() const { return outcome == Outcome::NoSchema; }
  // Every error on its own line, or the note.
  std::string summary() const;
  // True when some error is at exactly `path`.
  bool has_error_at(const std::string& path) const;
};

struct ValidateOptions {
  // Rendered objects always name their namespace; a hand-written manifest may
  // leave it to kubectl's current context.
  bool require_namespace = false;
};

// YAML as kubectl reads it (sigs.k8s.io/yaml, YAML 1.1 plain scalars: yes/no/
// on/off are booleans, 010 is octal, 1_000 is an integer; such a plain key
// becomes its JSON text, "on:" is "true") turned into JSON. Merge keys (<<)
// are not expanded. Empty documents are left out. A duplicate key, a non-scalar key, a value
// JSON cannot hold (.inf, .nan) or a YAML syntax error is listed in `errors`.
struct YamlDocuments {
  std::vector<nlohmann::json> documents;
  std::vector<std::string> errors;
};
YamlDocuments yaml_to_json(const std::string& text);
YamlDocuments read_yaml_file(const std::filesystem::path& file);

// The served versions of a set of CRDs, their schemas compiled once.
class CrdCatalog {
 public:
  CrdCatalog();
  ~CrdCatalog();
  CrdCatalog(CrdCatalog&&) noexcept;
  CrdCatalog& operator=(CrdCatalog&&) noexcept;
  CrdCatalog(const CrdCatalog&) = delete;
  CrdCatalog& operator=(const CrdCatalog&) = delete;

  // Every CustomResourceDefinition in DIR/*.yaml (sorted). An unreadable file,
  // a document that is not a usable CRD, or a schema keyword this validator
  // does not know is listed in load_errors().
  static CrdCatalog load_directory(const std::filesystem::path& dir);
  // The CRDs of one YAML text (tests with small hand-written CRDs).
  static CrdCatalog load_text(const std::string& yaml);

  ValidationResult validate(const nlohmann::json& object, const ValidateOptions& options = {}) const;
  ValidationResult validate(const nlohmann::ordered_json& object, const ValidateOptions& options = {}) const;

  const std::vector<std::string>& load_errors() const;
  // "kueue.x-k8s.io/v1beta2 Kind: PATTERN (why)" for each pattern std::regex
  // could not compile; such a pattern is not checked.
  const std::vector<std::string>& unsupported_patterns() const;
  // "kueue.x-k8s.io/v1beta2 ClusterQueue" for every served version, sorted.
  std::vector<std::string> served_kinds() const;
  // How many x-kubernetes-validations (CEL) rules were skipped while loading.
  std::size_t skipped_cel_rules() const;

  struct Impl;  // the compiled schemas; opaque (defined in crd_validator.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

// MKQ_SHARED_DIR/kueue/crds: the released Kueue CRDs, when ../shared exists.
std::filesystem::path kueue_crds_dir();
// MKQ_SHARED_DIR/kueue/examples.
std::filesystem::path kueue_examples_dir();

}  // namespace mkq::test_support
