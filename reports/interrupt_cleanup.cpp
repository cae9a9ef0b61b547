#include "reports/interrupt_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace gputco {

namespace {

constexpr std::size_t kSlots = 16;
constexpr std::size_t kPathBytes = 4096;  // PATH_MAX, with its NUL
// SIGPIPE: standard output to a pipe whose reader went (`gputco plan ... | head -1`) kills
// the process while a command's staged outputs wait for that output to arrive.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

enum SlotState : int { kFree = 0, kFilling = 1, kListed = 2 };
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads these flags");

struct Slot {
  std::atomic<int> state{kFree};
  char path[kPathBytes] = {};
};

std::array<Slot, kSlots> slots;

extern "C" void remove_listed_and_die(int signal_number) {
  const int saved_errno = errno;
  for (Slot& slot : slots) {
    if (slot.state.load(std::memory_order_acquire) == kListed) ::unlink(slot.path);
  }
  errno = saved_errno;
  // SA_RESETHAND restored the default disposition; the signal is blocked while this handler
  // runs, so it is delivered (and the process dies of it) as soon as the handler returns.
  ::raise(signal_number);
}

void install_handlers() {
  for (const int signal_number : kSignals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL) continue;  // ignored, or someone else's handler
    struct sigaction action {};
    action.sa_handler = remove_listed_and_die;
    sigemptyset(&action.sa_mask);
    for (const int other : kSignals) sigaddset(&action.sa_mask, other);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

int remove_on_interrupt(const std::string& path) noexcept {
  static std::once_flag installed;
  try {
    std::call_once(installed, install_handlers);
  } catch (...) {
    return -1;
  }
  if (path.empty() || path.size() >= kPathBytes) return -1;
  for (std::size_t i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kListed, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void forget_on_interrupt(int slot) noexcept {
  if (slot < 0 || static_cast<std::size_t>(slot) >= kSlots) return;
  slots[static_cast<std::size_t>(slot)].state.store(kFree, std::memory_order_release);
}

}  // namespace gputco
