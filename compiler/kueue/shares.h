// A worker's capacity shared among the queues and cohorts it serves the way
// the manager's quotas share the fleet: in proportion to their nominal quotas
// on the manager, rounded so that the shares add up to exactly the capacity
// (docs/render.md, "Each worker").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/sema/model.h"
#include "compiler/sema/quantity.h"

namespace mkq::kueue {

// Shares of `total` (>= 0) in proportion to `weights` (each >= 0), by the
// largest-remainder method: entry i gets floor(total * w_i / W), W the sum of
// the weights, then the units left over go one each to the entries with the
// largest remainders (the earlier entry on a tie). Invariant: the shares add
// up to exactly `total` when W > 0, and no share is more than one unit from
// its exact value; all are 0 when W is 0.
std::vector<std::int64_t> apportion(std::int64_t total, std::span<const std::int64_t> weights);

// Rewrites `quotas` -- the worker's copies of the manager's quotas of one
// flavor and resource, from every queue and cohort the worker serves -- to
// their shares of `capacity`: nominal quotas by apportion() of the manager's
// nominal quotas, borrowing and lending limits by the same factor (capacity /
// the sum of the manager's nominal quotas), rounded down. Values are counted
// in whole units, or in 1m, 1u or 1n when the capacity or a manager quota is
// written with a fraction that needs it. The nominal quotas then add up to
// exactly `capacity` (to `capacity` rounded down to the unit, for a capacity
// finer than every quota), never more.
void share_capacity(const sema::Quantity& capacity, const std::vector<sema::model::ResourceQuota*>& quotas);

}  // namespace mkq::kueue
