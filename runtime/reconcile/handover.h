// A plan in which a worker leaves the fleet is phased (plan.h: Handover,
// Step): the new workers join and turn Active first, then the manager's
// MultiKueueConfigs stop naming the old ones, then the old ones drain, and
// only then is anything deleted (docs/apply.md, "Replacing a worker").
#pragma once

#include <string>
#include <vector>

#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {

// Fills plan.handover from the manager's MultiKueueClusters and
// MultiKueueConfigs (as `live` holds them and as the plan changes them) and,
// when a worker leaves, sets every change's step. An apply plan only: a
// destroy removes the whole fleet and is not phased.
void phase_plan(Plan& plan, const kueue::DesiredState& desired, const LiveState& live);

// The steps of a phased plan in words, one line each ("1. ...", "2. ..."),
// after a headline; empty when the plan is not phased. For every rendering.
std::vector<std::string> handover_lines(const Plan& plan);

}  // namespace mkq::reconcile
