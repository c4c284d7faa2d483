// The variables the header declares, and the one call into the Swift runtime; the header's
// other functions are all `static inline`.
#include "_ShankAtomics.h"

__thread void *_shank_current_trace = 0;
__thread uintptr_t _shank_current_hazard = 0;
uintptr_t _shank_observing = 0;
uintptr_t _shank_latest_root = 0;
uintptr_t _shank_overrides_installed = 0;

// The runtime's `SerialExecutorRef` and `swift_task_isCurrentExecutorWithFlags`, as
// include/swift/Runtime/Concurrency.h and include/swift/ABI/Executor.h in swiftlang/swift
// declare them: `SWIFT_CC(swift)`, which is clang's `swiftcall`. Its flag `MustNotAssert`
// (0x10) makes it answer false where it would otherwise trap. On Apple platforms the runtime is
// the system's, and an older one lacks the function, so it is imported weakly and checked; a
// reference, rather than a lookup by name, links whether the runtime is linked dynamically or
// statically (a static runtime exports no symbol to look up).
typedef struct {
  const void *identity;
  uintptr_t implementation;
} _shank_serial_executor_ref;

#if defined(__APPLE__)
__attribute__((weak_import))
#endif
extern __attribute__((swiftcall)) bool
swift_task_isCurrentExecutorWithFlags(_shank_serial_executor_ref executor, uint64_t flags);

int _shank_is_current_executor(const void *identity, uintptr_t implementation) {
#if defined(__APPLE__)
  if (!swift_task_isCurrentExecutorWithFlags) return -1;
#endif
  _shank_serial_executor_ref executor = {identity, implementation};
  return swift_task_isCurrentExecutorWithFlags(executor, 0x10) ? 1 : 0;
}
