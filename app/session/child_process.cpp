#include "session/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

extern char** environ;

namespace frac {

std::string selfExecutable() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, size_t(length)) : std::string();
}

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::start(const std::vector<std::string>& arguments, const std::string& logFile,
                         const std::string& executable) {
  stop();
  const std::string program = executable.empty() ? selfExecutable() : executable;
  std::vector<std::string> args = arguments;
  args.insert(args.begin(), program);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  const char* log = logFile.empty() ? "/dev/null" : logFile.c_str();
  posix_spawn_file_actions_addopen(&files, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  pid_t pid = 0;
  const int failed = posix_spawn(&pid, program.c_str(), &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  exitCode_ = -1;
  if (failed != 0) throw std::runtime_error("cannot start " + program);
  pid_ = pid;
}

void ChildProcess::reaped(int status) {
  pid_ = 0;
  exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == 0) return true;
  reaped(status);
  return false;
}

int ChildProcess::wait() {
  if (pid_ <= 0) return exitCode_;
  int status = 0;
  waitpid(pid_, &status, 0);
  reaped(status);
  return exitCode_;
}

void ChildProcess::terminate() {
  if (const pid_t pid = pid_; pid > 0) kill(pid, SIGTERM);
}

void ChildProcess::stop() {
  if (pid_ <= 0) return;
  terminate();
  wait();
  exitCode_ = -1;
}

}  // namespace frac
