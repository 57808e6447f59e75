#pragma once
// A child process of this program (the scene browser's thumbnails, a timeline range rendered headless): started with
// its arguments, its output into a log file, polled or waited for, stopped when its owner goes.
#include <sys/types.h>

#include <atomic>
#include <string>
#include <vector>

namespace frac {

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();  // stops it (SIGTERM) and reaps it
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Runs `executable` (empty: this program, /proc/self/exe) with `arguments`, stdout and stderr into `logFile`
  // (empty: discarded). Throws std::runtime_error when it cannot start.
  void start(const std::vector<std::string>& arguments, const std::string& logFile = "",
             const std::string& executable = "");
  bool running();     // false once it ended (reaped); exitCode() then says how
  int wait();         // blocks until it ends; its exit code
  void stop();        // SIGTERM, then reaped
  void terminate();   // SIGTERM only: from another thread than the one that waits
  int exitCode() const { return exitCode_; }  // -1 while running, or killed by a signal

 private:
  void reaped(int status);

  std::atomic<pid_t> pid_{0};
  int exitCode_ = -1;
};

// This program's path (/proc/self/exe); empty when it cannot be read.
std::string selfExecutable();

}  // namespace frac
