// Running a writer whose library may crash in a child process, so that its crash is a
// message and an exit code, not the end of gputco.
#pragma once

#include <functional>
#include <string>

namespace gputco {

/// Runs `write` in a child process (fork(2)) and waits for it. libxlsxwriter 1.1.4 does not
/// survive every failed allocation: under `ulimit -v` it logs "Memory allocation failed" and
/// then dereferences the NULL inside the library (worksheet.c _get_row_list calls _free_row on
/// it: signal 11), which no check of its return codes can catch in the process that called it.
/// In the child that crash ends only the child; here it becomes a ReportError.
///
/// `write` runs in the child as it would here (same memory, files and limits) and must leave
/// its result in files; its exceptions (a ReportError, std::bad_alloc, any std::exception)
/// come back as their message. The child ends with _exit(2), so nothing buffered here (the
/// summary on standard output) is written twice.
/// Throws ReportError(`path`, reason): the child's exception's message; "out of memory
/// (REASON)" when it died of a signal (`what` names the writer: "libxlsxwriter died of
/// signal 11 (Segmentation fault)") or could not be started (fork failed: no memory or
/// process left). Waits through EINTR; a signal that kills this process kills the child too
/// (same process group), and the interrupt clean-up removes the files either wrote.
void run_in_child_process(const std::string& path, const std::string& what,
                          const std::function<void()>& write);

}  // namespace gputco
