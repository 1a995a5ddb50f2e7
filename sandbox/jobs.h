// batch/v1 Jobs and CronJobs, as kube-apiserver v1.33 stores them: v1
// defaults, the selector and pod labels a Job is given on create
// (batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-name and the
// legacy controller-uid and job-name), validation and the table printers.
// No job controller and no cronjob controller run: a Job gets no pods and no
// status (kubectl shows it Running, 0/1), a CronJob never schedules one; a
// client may write status through the status subresource.
#pragma once

#include <ctime>
#include <nlohmann/json.hpp>
#include <vector>

#include "sandbox/schema.h"

namespace mkq::sandbox {

inline constexpr const char* kBatchGroup = "batch";

// SetDefaults_Job (completions and parallelism 1, backoffLimit 6,
// completionMode NonIndexed, suspend false, podReplacementPolicy,
// manualSelector false, the Job's labels from its template's when it has
// none) and the pod template's defaults. No state.
void default_job(nlohmann::json& job);
// PrepareForCreate, after default_job and once the uid is set: the generated
// selector and template labels (unless manualSelector), status cleared.
void prepare_new_job(nlohmann::json& job);
// ValidateJob, and ValidateJobUpdate with `existing`.
std::vector<FieldError> validate_job(const nlohmann::json& job, const nlohmann::json* existing);

// SetDefaults_CronJob (concurrencyPolicy Allow, suspend false, history
// limits 3 and 1) and the job template's pod defaults.
void default_cron_job(nlohmann::json& cron_job);
// ValidateCronJobCreate / ValidateCronJobUpdate: the name's length, the
// schedule (robfig/cron's standard parser), the job template.
std::vector<FieldError> validate_cron_job(const nlohmann::json& cron_job, const nlohmann::json* existing);

// The printers: NAME STATUS COMPLETIONS DURATION AGE (+CONTAINERS IMAGES
// SELECTOR), and NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE (+ the same three).
nlohmann::json job_columns();
nlohmann::json job_cells(const nlohmann::json& job, std::time_t now);
nlohmann::json cron_job_columns();
nlohmann::json cron_job_cells(const nlohmann::json& cron_job, std::time_t now);

}  // namespace mkq::sandbox
