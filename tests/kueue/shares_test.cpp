// A worker's capacity shared among the queues it serves (compiler/kueue/shares.h):
// the largest-remainder method, exact sums, limits scaled alike.
#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "compiler/kueue/shares.h"

using mkq::kueue::apportion;
using mkq::kueue::share_capacity;
using mkq::sema::Quantity;
namespace model = mkq::sema::model;

namespace {

std::int64_t sum(const std::vector<std::int64_t>& values) {
  return std::accumulate(values.begin(), values.end(), std::int64_t{0});
}

Quantity q(const char* text) { return *Quantity::parse(text); }

model::ResourceQuota quota(const char* nominal, const char* borrowing = nullptr,
                           const char* lending = nullptr) {
  model::ResourceQuota out;
  out.resource = "nvidia.com/gpu";
  out.nominal.value = q(nominal);
  if (borrowing != nullptr) out.borrowing_limit = model::Located<Quantity>{q(borrowing), {}};
  if (lending != nullptr) out.lending_limit = model::Located<Quantity>{q(lending), {}};
  return out;
}

}  // namespace

TEST_CASE("apportion: proportional shares that divide evenly", "[kueue][shares]") {
  const std::vector<std::int64_t> weights = {24, 16, 24};
  CHECK(apportion(32, weights) == std::vector<std::int64_t>{12, 8, 12});
  CHECK(apportion(64, weights) == std::vector<std::int64_t>{24, 16, 24});
  CHECK(apportion(128, weights) == std::vector<std::int64_t>{48, 32, 48});
}

TEST_CASE("apportion: shares add up to exactly the total, never more (no off-by-rounding)",
          "[kueue][shares]") {
  // 32 / 3 = 10.67 each: rounding each to nearest gives 33, rounding down 30.
  const std::vector<std::int64_t> thirds = apportion(32, std::vector<std::int64_t>{1, 1, 1});
  CHECK(thirds == std::vector<std::int64_t>{11, 11, 10});
  // 7 * 1/3, 7 * 2/3 = 2.33, 4.67: the larger remainder gets the unit.
  CHECK(apportion(7, std::vector<std::int64_t>{1, 2}) == std::vector<std::int64_t>{2, 5});
  // Halves round half up on the first entry only: 3 * 1/2 = 1.5, 1.5.
  CHECK(apportion(3, std::vector<std::int64_t>{5, 5}) == std::vector<std::int64_t>{2, 1});
  for (std::int64_t total = 0; total <= 50; ++total) {
    for (const auto& weights : std::vector<std::vector<std::int64_t>>{
             {1, 1, 1}, {3, 5, 7, 11}, {24, 16, 24}, {1, 0, 2}, {9}, {1, 1, 1, 1, 1, 1, 1}, {100, 1}}) {
      const std::vector<std::int64_t> shares = apportion(total, weights);
      INFO("total " << total << ", " << weights.size() << " weights");
      CHECK(sum(shares) == total);
      const std::int64_t weight_sum = sum(weights);
      for (std::size_t i = 0; i < weights.size(); ++i) {
        // Within one unit of the exact share total * w / W, and never below its floor.
        CHECK(shares[i] * weight_sum >= total * weights[i] - weight_sum + 1);
        CHECK(shares[i] * weight_sum < total * weights[i] + weight_sum);
        CHECK(shares[i] >= total * weights[i] / weight_sum);
      }
    }
  }
}

TEST_CASE("apportion: a zero weight gets nothing, no weight at all gives nothing", "[kueue][shares]") {
  CHECK(apportion(10, std::vector<std::int64_t>{0, 3, 0, 1}) == std::vector<std::int64_t>{0, 8, 0, 2});
  CHECK(apportion(10, std::vector<std::int64_t>{0, 0}) == std::vector<std::int64_t>{0, 0});
  CHECK(apportion(0, std::vector<std::int64_t>{2, 3}) == std::vector<std::int64_t>{0, 0});
  CHECK(apportion(5, std::vector<std::int64_t>{}).empty());
}

TEST_CASE("share_capacity: nominal quotas and limits scaled to the worker", "[kueue][shares]") {
  model::ResourceQuota nlp = quota("24", "40");
  model::ResourceQuota speech = quota("16", "48");
  model::ResourceQuota vision = quota("24", "40", "8");
  share_capacity(q("32"), {&nlp, &speech, &vision});
  CHECK(nlp.nominal.value.to_string() == "12");
  CHECK(speech.nominal.value.to_string() == "8");
  CHECK(vision.nominal.value.to_string() == "12");
  CHECK(nlp.borrowing_limit->value.to_string() == "20");
  CHECK(speech.borrowing_limit->value.to_string() == "24");
  CHECK(vision.lending_limit->value.to_string() == "4");
}

TEST_CASE("share_capacity: limits round down and a lending limit stays within the nominal quota",
          "[kueue][shares]") {
  model::ResourceQuota a = quota("1", "5", "1");
  model::ResourceQuota b = quota("1", "5", "1");
  model::ResourceQuota c = quota("1", "5", "1");
  share_capacity(q("32"), {&a, &b, &c});
  CHECK(a.nominal.value.to_string() == "11");
  CHECK(b.nominal.value.to_string() == "11");
  CHECK(c.nominal.value.to_string() == "10");
  for (const model::ResourceQuota* r : {&a, &b, &c}) {
    CHECK(r->borrowing_limit->value.to_string() == "53");  // 5 * 32 / 3 = 53.3
    CHECK(r->lending_limit->value.compare(r->nominal.value) <= 0);
    CHECK(r->lending_limit->value.to_string() == "10");  // 1 * 32 / 3 = 10.7
  }
}

TEST_CASE("share_capacity: memory keeps its binary notation, fractions count in milli-units",
          "[kueue][shares]") {
  model::ResourceQuota big = quota("1536Gi");
  model::ResourceQuota small = quota("1024Gi");
  model::ResourceQuota half = quota("1Gi");
  model::ResourceQuota other = quota("1Gi");
  share_capacity(q("512Gi"), {&half, &other});
  CHECK(half.nominal.value.to_string() == "256Gi");
  CHECK(other.nominal.value.to_string() == "256Gi");
  share_capacity(q("2Ti"), {&big, &small});
  // 2Ti * 3/5 and 2/5 = 1319413953331.2 and 879609302220.8 bytes.
  CHECK(big.nominal.value.to_string() == "1319413953331");
  CHECK(small.nominal.value.to_string() == "879609302221");
  CHECK(Quantity::add(big.nominal.value, small.nominal.value, nullptr)->to_string() == "2Ti");

  model::ResourceQuota x = quota("1");
  model::ResourceQuota y = quota("2");
  share_capacity(q("2.5"), {&x, &y});  // 2500m * 1/3, 2/3 = 833.3m, 1666.7m
  CHECK(x.nominal.value.to_string() == "833m");
  CHECK(y.nominal.value.to_string() == "1667m");
}

TEST_CASE("share_capacity: one holder gets the whole capacity", "[kueue][shares]") {
  model::ResourceQuota only = quota("8", "4");
  share_capacity(q("32"), {&only});
  CHECK(only.nominal.value.to_string() == "32");
  CHECK(only.borrowing_limit->value.to_string() == "16");
}
