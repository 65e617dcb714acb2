#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::app {

/// The outcome of one reload request.
struct reload_outcome {
  enum class kind {
    applied,  ///< the new manifests run (what changed is in `result`)
    invalid,  ///< the new manifests have errors: nothing changed, `errors` says why
    stopping, ///< ganglion is stopping: nothing was reloaded
  };
  kind what = kind::applied;
  core::reload_result result;
  std::vector<std::string> errors; ///< `file:line:col: path: message` per error

  /// As the answer of POST /v1/reload: the result's lists and summary, or the errors.
  std::string to_json() const;
};

/// Documents that come from elsewhere than the `-f` files (cluster mode), added to each reload.
struct extra_documents {
  /// The valid documents to run beside `files` (the files' documents, valid); called on the
  /// reload thread. Its own invalid documents are left out, never refusing the reload.
  std::function<std::vector<dsl::document>(const std::vector<dsl::document>& files)> load;
  /// Called on the reload thread after a reload was applied.
  std::function<void()> applied;
};

/// Reloads the manifests given with `-f` (and the extra documents) into the running engine, one reload at a time on its
/// own thread; SIGHUP, the file watcher and POST /v1/reload all ask it. A new set with errors
/// is refused (the running one stays) and the errors are logged and shown in /v1/status.
class reloader {
public:
  /// Called with the outcome of a request, on the reload thread.
  using callback = std::function<void(const reload_outcome&)>;

  reloader(core::engine& engine, std::vector<std::string> paths, dsl::load_options load,
           extra_documents extra = {});
  /// Stops (see stop()).
  ~reloader();
  reloader(const reloader&) = delete;
  reloader& operator=(const reloader&) = delete;

  /// Asks for a reload because of `reason` (logged). Requests that arrive while a reload runs
  /// are served together by the next one.
  void request(std::string reason, callback done = {});

  /// Finishes the reload in progress; later and still-queued requests get `stopping`.
  void stop();

private:
  struct pending {
    std::string reason;
    callback done;
  };

  void run();
  reload_outcome reload_once();

  core::engine& engine_;
  std::vector<std::string> paths_;
  dsl::load_options load_;
  extra_documents extra_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<pending> queue_;
  bool stopping_ = false;
  std::uint64_t reloads_ = 0;
  std::thread thread_;
};

} // namespace ganglion::app
