// Temporary files that an interrupted process removes before it dies: the atomic writer's
// half-written or staged outputs must not outlive a Ctrl-C, a kill or a closed pipe.
#pragma once

#include <string>

namespace gputco {

/// Lists `path` for removal if the process receives SIGINT, SIGTERM, SIGHUP or SIGPIPE before
/// forget_on_interrupt(). On first use installs a handler for each of these signals whose
/// disposition is the default (an ignored signal stays ignored: nohup, a background job); the
/// handler unlinks every listed path (async-signal-safe: a fixed table of 16 paths of up to
/// 4095 bytes, lock-free flags, unlink(2)), restores the default disposition and raises the
/// signal again, so the process still dies of it (exit status 128 + signal in a shell).
/// Returns the slot to pass to forget_on_interrupt, or -1 when the table is full or the path
/// too long (the file is then only removed by its owner's normal clean-up). Throws nothing.
int remove_on_interrupt(const std::string& path) noexcept;

/// Takes the path of `slot` off the list (it was renamed into place, or removed). -1: nothing.
void forget_on_interrupt(int slot) noexcept;

}  // namespace gputco
