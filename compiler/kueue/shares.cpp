// The largest-remainder sharing of a worker's capacity (shares.h).
#include "compiler/kueue/shares.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace mkq::kueue {
namespace {

__extension__ using Int128 = __int128;

namespace model = sema::model;

// floor(value * total / sum): a limit scaled by the quotas' factor, capped at
// the largest count; 0 when there is nothing to scale by.
std::int64_t scale_down(std::int64_t value, std::int64_t total, Int128 sum) {
  if (sum <= 0 || value <= 0) return 0;
  const Int128 scaled = static_cast<Int128>(value) * total / sum;
  return scaled > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(scaled);
}

// The exponent of the unit values are counted in: the coarsest of 1, 1m, 1u, 1n
// in which every value is exact, made coarser (rounding down) while a count
// would not fit in 64 bits.
int counting_exponent(const std::vector<sema::Quantity>& values) {
  int exponent = -9;
  for (const int candidate : {0, -3, -6}) {
    const bool exact = std::all_of(values.begin(), values.end(), [&](const sema::Quantity& value) {
      const auto count = value.floor_units(candidate);
      if (!count) return false;
      const auto back = sema::Quantity::from_units(*count, candidate, value.format());
      return back && *back == value;
    });
    if (exact) {
      exponent = candidate;
      break;
    }
  }
  while (exponent < 27 && std::any_of(values.begin(), values.end(), [&](const sema::Quantity& value) {
           return !value.floor_units(exponent).has_value();
         })) {
    exponent += 3;
  }
  return exponent;
}

std::int64_t count_of(const sema::Quantity& value, int exponent) {
  const auto count = value.floor_units(exponent);
  return count && *count > 0 ? *count : 0;
}

// `count` units as a quantity printed like `like`; `like` itself when out of range.
sema::Quantity quantity_of(std::int64_t count, int exponent, const sema::Quantity& like) {
  const auto out = sema::Quantity::from_units(count, exponent, like.format());
  return out ? *out : like;
}

}  // namespace

std::vector<std::int64_t> apportion(std::int64_t total, std::span<const std::int64_t> weights) {
  std::vector<std::int64_t> shares(weights.size(), 0);
  const Int128 sum = std::accumulate(weights.begin(), weights.end(), Int128{0},
                                     [](Int128 acc, std::int64_t w) { return acc + (w > 0 ? w : 0); });
  if (sum == 0 || total <= 0) return shares;
  std::vector<Int128> remainders(weights.size(), 0);
  Int128 given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const Int128 product = static_cast<Int128>(total) * (weights[i] > 0 ? weights[i] : 0);
    shares[i] = static_cast<std::int64_t>(product / sum);
    remainders[i] = product % sum;
    given += shares[i];
  }
  // The left-over units: fewer than the entries with a remainder, one each.
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (Int128 left = total - given, i = 0; left > 0; --left, ++i)
    ++shares[order[static_cast<std::size_t>(i)]];
  return shares;
}

void share_capacity(const sema::Quantity& capacity, const std::vector<model::ResourceQuota*>& quotas) {
  std::vector<sema::Quantity> values = {capacity};
  for (const model::ResourceQuota* quota : quotas) {
    values.push_back(quota->nominal.value);
    if (quota->borrowing_limit) values.push_back(quota->borrowing_limit->value);
    if (quota->lending_limit) values.push_back(quota->lending_limit->value);
  }
  const int exponent = counting_exponent(values);
  const std::int64_t total = count_of(capacity, exponent);
  std::vector<std::int64_t> weights;
  weights.reserve(quotas.size());
  for (const model::ResourceQuota* quota : quotas)
    weights.push_back(count_of(quota->nominal.value, exponent));
  const Int128 sum = std::accumulate(weights.begin(), weights.end(), Int128{0});
  const std::vector<std::int64_t> shares = apportion(total, weights);
  for (std::size_t i = 0; i < quotas.size(); ++i) {
    model::ResourceQuota& quota = *quotas[i];
    quota.nominal.value = quantity_of(shares[i], exponent, capacity);
    for (auto* limit : {&quota.borrowing_limit, &quota.lending_limit}) {
      if (*limit)
        (*limit)->value =
            quantity_of(scale_down(count_of((*limit)->value, exponent), total, sum), exponent, capacity);
    }
  }
}

}  // namespace mkq::kueue
