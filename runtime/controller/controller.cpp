// The entry function: the HTTP endpoints first (a probe answers while the
// manager is still out of reach), then the manager's connection, the leader
// elector's thread, and the loop until stopped.
#include "runtime/controller/controller.h"

#include <memory>
#include <thread>

#include "runtime/controller/events.h"
#include "runtime/controller/http.h"
#include "runtime/controller/leader.h"
#include "runtime/controller/loop.h"
#include "runtime/controller/memory.h"
#include "runtime/controller/metrics.h"
#include "runtime/controller/ui.h"

namespace mkq::controller {

namespace {

constexpr std::size_t kThreadCacheBytes = 4 << 20;

// Sleeps `duration`, or less when `stop` turns true.
void nap(std::chrono::milliseconds duration, const std::atomic<bool>& stop) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (!stop.load() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(50), until - std::chrono::steady_clock::now()));
  }
}

// The controller's own connection to the manager (the lease and the Events),
// through the same resolver as its runs, with requests cut short enough that
// a renewal never outlasts the renew interval.
struct Manager {
  operation::Compilation compiled;
  operation::Session session;
  kube::Client* client() const { return session.targets.empty() ? nullptr : session.targets.front().client; }
};

bool connect(const Options& options, operation::TargetResolver& resolver, Log& log, Manager* manager) {
  ControllerUi ui(log, nullptr);
  manager->compiled = operation::compile(options.run.path, operation::CompileTo::Model, options.run.compile);
  ui.compiled(manager->compiled);
  if (!manager->compiled.ok()) return false;
  operation::TargetRequest request;
  request.policy = &*manager->compiled.policy;
  request.policy_path = options.run.path;
  request.options = options.run.runtime;
  const std::chrono::milliseconds limit = options.leader.renew_every;
  if (request.options.request_timeout.count() == 0 || request.options.request_timeout > limit) {
    request.options.request_timeout = limit;
  }
  if (!resolver.open(request, ui, &manager->session)) return false;
  if (manager->client() == nullptr) {
    log.error("the manager " + manager->session.targets.front().cluster +
              " cannot be reached: " + manager->session.targets.front().connect_error);
    return false;
  }
  return true;
}

}  // namespace

Ending run(const Options& options, operation::TargetResolver& resolver, PolicyWatch& watch,
           const base::Clock& clock, Log& log, const std::atomic<bool>& stop) {
  // The runs' free memory stays bounded between runs (bench/README.md, "mkq controller"): measured, the
  // memory a run keeps is under 2 MiB; without a bound the threads' caches grew by 19 MiB over 100 runs.
  bound_thread_caches(kThreadCacheBytes);
  const std::string identity = options.leader.identity.empty() ? default_identity() : options.leader.identity;
  Metrics metrics;
  std::atomic<Reconciler*> reconciler{nullptr};
  Endpoints endpoints;
  endpoints.healthz = [] { return Probe{true, "ok"}; };
  endpoints.readyz = [&reconciler] {
    const Reconciler* r = reconciler.load();
    return r != nullptr ? r->ready() : Probe{false, "not connected to the manager yet"};
  };
  endpoints.metrics = [&metrics, &clock] {
    return metrics.render(std::chrono::duration<double>(clock.now().time_since_epoch()).count());
  };
  HttpServer http(endpoints);
  if (const base::Result<void> serving = http.start(options.listen); !serving) {
    log.error(base::render(serving.error()));
    return Ending::CannotServe;
  }
  log.line("serving /healthz, /readyz and /metrics on http://" + http.address() + " as " + identity);

  Manager manager;
  while (!stop.load() && !connect(options, resolver, log, &manager)) {
    manager = Manager{};
    nap(options.watch_every * 5, stop);
  }
  if (stop.load()) return Ending::Stopped;

  LeaderOptions leader = options.leader;
  leader.identity = identity;
  EventRecorder events(manager.client(), leader, identity, clock, log);
  std::unique_ptr<LeaderElector> elector;
  std::thread electing;
  std::atomic<bool> done{false};
  std::string said;  // the elector's last error, as logged (the elector's thread's alone)
  if (leader.enabled) {
    elector = std::make_unique<LeaderElector>(
        *manager.client(), leader, clock, [&](bool leading, const std::string& why) {
          log.line((leading ? "leading: " : "standing by: ") + why);
          metrics.set_leader(leading);
          if (leading) events.record(kNormal, "LeaderElected", identity + " " + why);
        });
    // Each step's error is logged once, until it changes.
    const auto step = [&elector, &log, &said] {
      const std::chrono::milliseconds next = elector->step();
      const std::string error = elector->error() ? elector->error()->message : "";
      if (error != said && !error.empty()) log.error(error);
      said = error;
      return next;
    };
    std::chrono::milliseconds next = step();
    electing = std::thread([&done, step, next]() mutable {
      while (!done.load()) {
        nap(next, done);
        if (!done.load()) next = step();
      }
    });
  } else {
    metrics.set_leader(true);
  }

  Reconciler loop(options, identity, resolver, watch, clock, log, metrics, elector.get(), &events, &stop);
  reconciler.store(&loop);
  while (!stop.load()) {
    if (loop.tick()) release_free_memory();
    nap(options.watch_every, stop);
  }
  reconciler.store(nullptr);
  done.store(true);
  if (electing.joinable()) electing.join();
  if (elector) elector->release();
  http.stop();
  if (loop.interrupted()) {
    log.line("stopped during an apply: the changes not started are left for the next run");
    return Ending::Interrupted;
  }
  log.line("stopped");
  return Ending::Stopped;
}

}  // namespace mkq::controller
