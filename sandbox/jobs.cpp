// Jobs and CronJobs (jobs.h). The rules and their words are kube-apiserver
// v1.33's: pkg/apis/batch/v1/defaults.go, pkg/registry/batch/job/strategy.go
// (generateSelector), pkg/apis/batch/validation, robfig/cron's parser
// (ParseStandard) and pkg/printers/internalversion (printJob, printCronJob).
#include "sandbox/jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

#include "sandbox/apps_workloads.h"
#include "sandbox/json_access.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kControllerUid = "batch.kubernetes.io/controller-uid";
constexpr const char* kJobName = "batch.kubernetes.io/job-name";
constexpr const char* kLegacyControllerUid = "controller-uid";
constexpr const char* kLegacyJobName = "job-name";

FieldError invalid_error(std::string field, const std::string& value, const std::string& detail) {
  return {"FieldValueInvalid", std::move(field), fmt::format("Invalid value: {}: {}", value, detail)};
}
FieldError required_error(std::string field, const std::string& detail = {}) {
  return {"FieldValueRequired", std::move(field), detail.empty() ? "Required value" : "Required value: " + detail};
}
FieldError not_supported_error(std::string field, const std::string& value, const std::string& supported) {
  return {"FieldValueNotSupported", std::move(field),
          fmt::format("Unsupported value: {}: supported values: {}", go_value(json(value)), supported)};
}

// SetDefaults_PodSpec (the workloads' pod template defaults, apps_workloads.h) and
// SetDefaults_Container, the fields a Job's pod template is shown with.
void default_job_pod_template(json& pod_template) {
  default_pod_template(pod_template);
  json& spec = pod_template["spec"];
  for (const char* list : {"initContainers", "containers"}) {
    if (!member(spec, list).is_array()) continue;
    for (json& container : spec[list]) {
      if (!container.is_object()) continue;
      set_default(container, "terminationMessagePath", "/dev/termination-log");
      set_default(container, "terminationMessagePolicy", "File");
      set_default(container, "resources", json::object());
      const std::string image = text_at(container, "image");
      const std::size_t slash = image.rfind('/');
      const std::string last = slash == std::string::npos ? image : image.substr(slash + 1);
      const bool latest = image.find('@') == std::string::npos &&
                          (last.find(':') == std::string::npos || last.substr(last.find(':') + 1) == "latest");
      set_default(container, "imagePullPolicy", latest ? "Always" : "IfNotPresent");
    }
  }
}

void default_job_spec(json& spec) {
  if (!spec.contains("completions") && !spec.contains("parallelism")) {
    spec["completions"] = 1;
    spec["parallelism"] = 1;
  }
  set_default(spec, "parallelism", 1);
  set_default(spec, "backoffLimit", member(spec, "backoffLimitPerIndex").is_null() ? 6 : 2147483647);
  set_default(spec, "completionMode", "NonIndexed");
  set_default(spec, "suspend", false);
  set_default(spec, "podReplacementPolicy", member(spec, "podFailurePolicy").is_null() ? "TerminatingOrFailed" : "Failed");
  default_job_pod_template(child_object(spec, "template"));
}

void nonnegative(const json& spec, const std::string& at, const char* key, std::vector<FieldError>& errors) {
  const json& value = member(spec, key);
  if (value.is_number_integer() && value.get<long long>() < 0) {
    errors.push_back(invalid_error(at + "." + key, std::to_string(value.get<long long>()), "must be greater than or equal to 0"));
  }
}

// validateJobSpec: counts, modes, the pod template and its restartPolicy.
void validate_job_spec(const json& spec, const std::string& at, std::vector<FieldError>& errors) {
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished",
                          "backoffLimitPerIndex", "maxFailedIndexes"}) {
    nonnegative(spec, at, key, errors);
  }
  if (const json& mode = member(spec, "completionMode"); mode.is_string()) {
    if (mode != "NonIndexed" && mode != "Indexed") {
      errors.push_back(not_supported_error(at + ".completionMode", mode.get<std::string>(), "\"NonIndexed\", \"Indexed\""));
    }
    if (mode == "Indexed" && member(spec, "completions").is_null()) {
      errors.push_back(required_error(at + ".completions", "when completion mode is Indexed"));
    }
  }
  if (const json& policy = member(spec, "podReplacementPolicy"); policy.is_string() && policy != "Failed" && policy != "TerminatingOrFailed") {
    errors.push_back(not_supported_error(at + ".podReplacementPolicy", policy.get<std::string>(), "\"Failed\", \"TerminatingOrFailed\""));
  }
  const json& pod_spec = member(member(spec, "template"), "spec");
  if (member(pod_spec, "containers").empty()) errors.push_back(required_error(at + ".template.spec.containers"));
  const std::string restart = text_at(pod_spec, "restartPolicy");
  if (restart == "Always" || restart.empty()) {
    errors.push_back(required_error(at + ".template.spec.restartPolicy", "valid values: \"OnFailure\", \"Never\""));
  } else if (restart != "OnFailure" && restart != "Never") {
    errors.push_back(not_supported_error(at + ".template.spec.restartPolicy", restart, "\"OnFailure\", \"Never\""));
  }
}

// validateGeneratedSelector: the labels generateSelector gave the template, and a selector that picks them.
void validate_generated_selector(const json& job, std::vector<FieldError>& errors) {
  const json& spec = member(job, "spec");
  if (member(spec, "manualSelector") == true || !member(spec, "selector").is_object()) return;
  const json& meta = member(job, "metadata");
  const std::string uid = text_at(meta, "uid");
  const std::string name = text_at(meta, "name");
  if (uid.empty()) errors.push_back(required_error("metadata.uid"));
  const json& labels = member(member(member(spec, "template"), "metadata"), "labels");
  for (const auto& [key, want] : {std::pair{kLegacyControllerUid, uid}, {kLegacyJobName, name}, {kControllerUid, uid}, {kJobName, name}}) {
    const std::string at = fmt::format("spec.template.metadata.labels[{}]", key);
    const json& have = member(labels, key);
    if (!have.is_string()) errors.push_back(required_error(at, fmt::format("must be '{}'", want)));
    else if (have != want) errors.push_back(invalid_error(at, go_string_map(labels), fmt::format("must be '{}'", want)));
  }
  const json expected = {{kControllerUid, uid}, {kJobName, name}, {kLegacyControllerUid, uid}, {kLegacyJobName, name}};
  if (!label_selector_matches(spec["selector"], expected)) {
    errors.push_back(invalid_error("spec.selector", go_label_selector(spec["selector"]), "`selector` not auto-generated"));
  }
}

// A pod template as validatePodTemplateUpdate compares it: a suspended Job
// that never started may change its scheduling directives, labels and annotations.
json comparable_template(const json& pod_template, bool mutable_scheduling) {
  json copy = pod_template;
  if (!mutable_scheduling || !copy.is_object()) return copy;
  if (copy["metadata"].is_object()) {
    copy["metadata"].erase("labels");
    copy["metadata"].erase("annotations");
  }
  if (copy["spec"].is_object()) {
    for (const char* key : {"nodeSelector", "tolerations", "schedulingGates"}) copy["spec"].erase(key);
    if (copy["spec"]["affinity"].is_object()) {
      copy["spec"]["affinity"].erase("nodeAffinity");
      if (copy["spec"]["affinity"].empty()) copy["spec"].erase("affinity");
    }
  }
  return copy;
}

std::string go_int(const json& value) { return value.is_number_integer() ? value.dump() : "null"; }

// ---- robfig/cron's standard parser: five fields or a descriptor ------------

struct CronField {
  int min, max;
  std::map<std::string, int> names;
};

const std::vector<CronField>& cron_fields() {
  static const std::vector<CronField> fields = {
      {0, 59, {}},
      {0, 23, {}},
      {1, 31, {}},
      {1, 12, {{"jan", 1}, {"feb", 2}, {"mar", 3}, {"apr", 4}, {"may", 5}, {"jun", 6}, {"jul", 7}, {"aug", 8}, {"sep", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12}}},
      {0, 6, {{"sun", 0}, {"mon", 1}, {"tue", 2}, {"wed", 3}, {"thu", 4}, {"fri", 5}, {"sat", 6}}}};
  return fields;
}

// parseIntOrName / mustParseInt: "" when `text` is a number or a name of the field.
std::string cron_value(const std::string& text, const CronField& field, int* out) {
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (const auto it = field.names.find(lower); it != field.names.end()) {
    *out = it->second;
    return {};
  }
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return fmt::format("failed to parse int from {}: strconv.Atoi: parsing {}: invalid syntax", text, go_value(json(text)));
  }
  *out = std::stoi(text);
  return {};
}

// getRange for one comma-separated part of a field.
std::string cron_range(const std::string& expr, const CronField& field) {
  const std::size_t slash = expr.find('/');
  const std::string range = expr.substr(0, slash);
  int start = field.min, end = field.max;
  if (range != "*" && range != "?") {
    const std::size_t dash = range.find('-');
    if (auto error = cron_value(range.substr(0, dash), field, &start); !error.empty()) return error;
    end = start;
    if (dash != std::string::npos) {
      if (auto error = cron_value(range.substr(dash + 1), field, &end); !error.empty()) return error;
    }
  }
  if (slash != std::string::npos) {
    int step = 0;
    const std::string text = expr.substr(slash + 1);
    if (auto error = cron_value(text, CronField{0, 0, {}}, &step); !error.empty()) return error;
    if (step == 0) return fmt::format("step of range should be a positive number: {}", expr);
  }
  if (start < field.min) return fmt::format("beginning of range ({}) below minimum ({}): {}", start, field.min, expr);
  if (end > field.max) return fmt::format("end of range ({}) above maximum ({}): {}", end, field.max, expr);
  if (start > end) return fmt::format("beginning of range ({}) beyond end of range ({}): {}", start, end, expr);
  return {};
}

// cron.ParseStandard's error for a schedule, "" when it parses.
std::string cron_error(const std::string& schedule) {
  if (schedule.empty()) return "empty spec string";
  std::string spec = schedule;
  if (spec.rfind("TZ=", 0) == 0 || spec.rfind("CRON_TZ=", 0) == 0) {  // a time zone first, then the schedule
    const std::size_t space = spec.find(' ');
    spec = space == std::string::npos ? std::string() : spec.substr(space + 1);
  }
  if (!spec.empty() && spec[0] == '@') {
    for (const char* d : {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}) {
      if (spec == d) return {};
    }
    if (spec.rfind("@every ", 0) == 0) return {};
    return fmt::format("unrecognized descriptor: {}", spec);
  }
  std::vector<std::string> fields;
  std::string current;
  for (char c : spec + " ") {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) fields.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (fields.size() != 5) {
    std::string listed;
    for (const std::string& f : fields) listed += (listed.empty() ? "" : " ") + f;
    return fmt::format("expected exactly 5 fields, found {}: [{}]", fields.size(), listed);
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::size_t begin = 0;
    while (begin <= fields[i].size()) {
      const std::size_t comma = fields[i].find(',', begin);
      const std::string part = fields[i].substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
      if (auto error = cron_range(part, cron_fields()[i]); !error.empty()) return error;
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
  }
  return {};
}

std::string age(const json& object, const char* path, std::time_t now) {
  const json when = json_path_first(object, path);
  const long long at = when.is_string() ? parse_timestamp(when.get<std::string>()) : -1;
  return at < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - at);
}

// layoutContainerCells: names and images joined by ",".
std::pair<std::string, std::string> container_cells(const json& pod_spec) {
  std::string names, images;
  const json& containers = member(pod_spec, "containers");
  for (std::size_t i = 0; containers.is_array() && i < containers.size(); ++i) {
    names += (i == 0 ? "" : ",") + text_at(containers[i], "name");
    images += (i == 0 ? "" : ",") + text_at(containers[i], "image");
  }
  return {names, images};
}

json column(const char* name, const char* type, const char* description, int priority = 0, const char* format = "") {
  return {{"name", name}, {"type", type}, {"format", format}, {"description", description}, {"priority", priority}};
}

constexpr const char* kNameDescription = "Name must be unique within a namespace.";
constexpr const char* kAgeDescription = "CreationTimestamp is a timestamp representing the server time when this object was created.";

bool has_true_condition(const json& job, const char* type) {
  const json& conditions = member(member(job, "status"), "conditions");
  for (std::size_t i = 0; conditions.is_array() && i < conditions.size(); ++i) {
    if (text_at(conditions[i], "type") == type && text_at(conditions[i], "status") == "True") return true;
  }
  return false;
}

}  // namespace

void default_job(json& job) {
  json& spec = child_object(job, "spec");
  default_job_spec(spec);
  set_default(spec, "manualSelector", false);
  json& meta = child_object(job, "metadata");
  const json& template_labels = member(member(spec["template"], "metadata"), "labels");
  if (member(meta, "labels").empty() && template_labels.is_object() && !template_labels.empty()) meta["labels"] = template_labels;
}

void prepare_new_job(json& job) {
  job.erase("status");
  json& spec = child_object(job, "spec");
  if (spec["manualSelector"] == true) return;
  const json& meta = member(job, "metadata");
  const std::string uid = text_at(meta, "uid");
  const std::string name = text_at(meta, "name");
  json& labels = child_object(child_object(child_object(spec, "template"), "metadata"), "labels");
  for (const auto& [key, value] : {std::pair{kLegacyJobName, name}, {kJobName, name}, {kLegacyControllerUid, uid}, {kControllerUid, uid}}) {
    if (!labels.contains(key)) labels[key] = value;
  }
  json& match = child_object(child_object(spec, "selector"), "matchLabels");
  if (!match.contains(kControllerUid)) match[kControllerUid] = uid;
}

std::vector<FieldError> validate_job(const json& job, const json* existing) {
  std::vector<FieldError> errors;
  validate_generated_selector(job, errors);
  const json& spec = member(job, "spec");
  validate_job_spec(spec, "spec", errors);
  const json& selector = member(spec, "selector");
  if (!selector.is_object()) {
    errors.push_back(required_error("spec.selector"));
  } else if (!label_selector_matches(selector, member(member(member(spec, "template"), "metadata"), "labels"))) {
    const json& labels = member(member(member(spec, "template"), "metadata"), "labels");
    errors.push_back(invalid_error("spec.template.metadata.labels", go_string_map(labels), "`selector` does not match template `labels`"));
  }
  if (existing == nullptr) return errors;
  const json& old_spec = member(*existing, "spec");
  if (member(spec, "completions") != member(old_spec, "completions")) {
    errors.push_back(invalid_error("spec.completions", go_int(member(spec, "completions")), "field is immutable"));
  }
  if (selector != member(old_spec, "selector")) {
    errors.push_back(invalid_error("spec.selector", go_label_selector(selector), "field is immutable"));
  }
  const bool mutable_scheduling = member(old_spec, "suspend") == true && member(member(*existing, "status"), "startTime").is_null();
  if (comparable_template(member(spec, "template"), mutable_scheduling) != comparable_template(member(old_spec, "template"), mutable_scheduling)) {
    errors.push_back(invalid_error("spec.template", "core.PodTemplateSpec{...}", "field is immutable"));
  }
  if (member(spec, "completionMode") != member(old_spec, "completionMode")) {
    errors.push_back(invalid_error("spec.completionMode", go_value(member(spec, "completionMode")), "field is immutable"));
  }
  return errors;
}

void default_cron_job(json& cron_job) {
  json& spec = child_object(cron_job, "spec");
  set_default(spec, "concurrencyPolicy", "Allow");
  set_default(spec, "suspend", false);
  set_default(spec, "successfulJobsHistoryLimit", 3);
  set_default(spec, "failedJobsHistoryLimit", 1);
  json& job_spec = child_object(child_object(spec, "jobTemplate"), "spec");
  default_job_pod_template(child_object(job_spec, "template"));
}

std::vector<FieldError> validate_cron_job(const json& cron_job, const json* existing) {
  std::vector<FieldError> errors;
  const std::string name = text_at(member(cron_job, "metadata"), "name");
  if (name.size() > 52) errors.push_back(invalid_error("metadata.name", go_value(json(name)), "must be no more than 52 characters"));
  const json& spec = member(cron_job, "spec");
  const std::string schedule = text_at(spec, "schedule");
  if (schedule.empty()) {
    errors.push_back(required_error("spec.schedule"));
  } else if (const std::string error = cron_error(schedule); !error.empty()) {
    errors.push_back(invalid_error("spec.schedule", go_value(json(schedule)), error));
  } else if (schedule.find("TZ") != std::string::npos &&
             (existing == nullptr || text_at(member(*existing, "spec"), "schedule").find("TZ") == std::string::npos)) {
    errors.push_back(invalid_error("spec.schedule", go_value(json(schedule)), "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
  }
  const std::string policy = text_at(spec, "concurrencyPolicy");
  if (policy.empty()) errors.push_back(required_error("spec.concurrencyPolicy"));
  else if (policy != "Allow" && policy != "Forbid" && policy != "Replace") {
    errors.push_back(not_supported_error("spec.concurrencyPolicy", policy, "\"Allow\", \"Forbid\", \"Replace\""));
  }
  for (const char* key : {"startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"}) nonnegative(spec, "spec", key, errors);
  const json& job_spec = member(member(spec, "jobTemplate"), "spec");
  if (member(job_spec, "manualSelector") == true) {
    errors.push_back({"FieldValueNotSupported", "spec.jobTemplate.spec.manualSelector",
                      "Unsupported value: true: supported values: \"nil\", \"false\""});
  }
  validate_job_spec(job_spec, "spec.jobTemplate.spec", errors);
  return errors;
}

json job_columns() {
  return json::array({column("Name", "string", kNameDescription, 0, "name"), column("Status", "string", "Status of the job."),
                      column("Completions", "string", "The number of pods which reached phase Succeeded."),
                      column("Duration", "string", "Time required to complete the job."),
                      column("Age", "string", kAgeDescription),
                      column("Containers", "string", "Names of each container in the template.", 1),
                      column("Images", "string", "Images referenced by each container in the template.", 1),
                      column("Selector", "string", "A label query over pods that should match the pod count.", 1)});
}

json job_cells(const json& job, std::time_t now) {
  const json& spec = member(job, "spec");
  const json& status = member(job, "status");
  const long long succeeded = member(status, "succeeded").is_number_integer() ? status["succeeded"].get<long long>() : 0;
  std::string completions;
  if (member(spec, "completions").is_number_integer()) {
    completions = fmt::format("{}/{}", succeeded, spec["completions"].get<long long>());
  } else {
    const long long parallelism = member(spec, "parallelism").is_number_integer() ? spec["parallelism"].get<long long>() : 0;
    completions = parallelism > 1 ? fmt::format("{}/1 of {}", succeeded, parallelism) : fmt::format("{}/1", succeeded);
  }
  std::string duration;
  const long long started = parse_timestamp(text_at(status, "startTime"));
  const long long finished = parse_timestamp(text_at(status, "completionTime"));
  if (started >= 0) duration = human_duration((finished >= 0 ? finished : static_cast<long long>(now)) - started);
  std::string state = "Running";
  if (has_true_condition(job, "Complete")) state = "Complete";
  else if (has_true_condition(job, "Failed")) state = "Failed";
  else if (member(member(job, "metadata"), "deletionTimestamp").is_string()) state = "Terminating";
  else if (has_true_condition(job, "Suspended")) state = "Suspended";
  else if (has_true_condition(job, "FailureTarget")) state = "FailureTarget";
  else if (has_true_condition(job, "SuccessCriteriaMet")) state = "SuccessCriteriaMet";
  const auto [names, images] = container_cells(member(member(spec, "template"), "spec"));
  return {text_at(member(job, "metadata"), "name"), state, completions, duration,
          age(job, ".metadata.creationTimestamp", now), names, images, format_label_selector(member(spec, "selector"))};
}

json cron_job_columns() {
  return json::array({column("Name", "string", kNameDescription, 0, "name"),
                      column("Schedule", "string", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
                      column("Timezone", "string", "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones."),
                      column("Suspend", "boolean", "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions."),
                      column("Active", "integer", "A list of pointers to currently running jobs."),
                      column("Last Schedule", "string", "Information when was the last time the job was successfully scheduled."),
                      column("Age", "string", kAgeDescription),
                      column("Containers", "string", "Names of each container in the template.", 1),
                      column("Images", "string", "Images referenced by each container in the template.", 1),
                      column("Selector", "string", "A label query over pods that should match the pod count.", 1)});
}

json cron_job_cells(const json& cron_job, std::time_t now) {
  const json& spec = member(cron_job, "spec");
  const json& status = member(cron_job, "status");
  const json& suspend = member(spec, "suspend");
  const json& active = member(status, "active");
  const json& job_spec = member(member(spec, "jobTemplate"), "spec");
  const auto [names, images] = container_cells(member(member(job_spec, "template"), "spec"));
  return {text_at(member(cron_job, "metadata"), "name"),
          text_at(spec, "schedule"),
          member(spec, "timeZone").is_string() ? spec["timeZone"].get<std::string>() : std::string("<none>"),
          suspend.is_boolean() ? (suspend.get<bool>() ? "True" : "False") : "<unset>",
          static_cast<long long>(active.is_array() ? active.size() : 0),
          member(status, "lastScheduleTime").is_string() ? age(cron_job, ".status.lastScheduleTime", now) : std::string("<none>"),
          age(cron_job, ".metadata.creationTimestamp", now),
          names,
          images,
          format_label_selector(member(job_spec, "selector"))};
}

}  // namespace mkq::sandbox
