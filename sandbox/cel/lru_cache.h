// A bounded cache for what the sandbox compiles once and reuses (CRD rules,
// regular expressions): at most `capacity` entries, the least recently used
// forgotten first, so a long-running sandbox does not grow with every CRD
// update or every pattern it has seen. Thread-safe; values are shared, so one
// still in use outlives its eviction.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace mkq::sandbox::cel {

template <typename Value>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

  // The entry of `key` (now the most recently used), or null.
  std::shared_ptr<const Value> find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second.second);
    return it->second.first;
  }

  // Sets `key` (replacing its entry), evicting the least recently used beyond the capacity.
  std::shared_ptr<const Value> insert(const std::string& key, Value value) {
    auto shared = std::make_shared<const Value>(std::move(value));
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = entries_.find(key); it != entries_.end()) {
      it->second.first = shared;
      order_.splice(order_.begin(), order_, it->second.second);
      return shared;
    }
    order_.push_front(key);
    entries_.emplace(key, std::make_pair(shared, order_.begin()));
    while (entries_.size() > capacity_) {
      entries_.erase(order_.back());
      order_.pop_back();
    }
    return shared;
  }

  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::size_t capacity_;
  std::list<std::string> order_;  // most recently used first
  std::unordered_map<std::string, std::pair<std::shared_ptr<const Value>, std::list<std::string>::iterator>>
      entries_;
};

}  // namespace mkq::sandbox::cel
