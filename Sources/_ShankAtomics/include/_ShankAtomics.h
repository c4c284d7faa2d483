// Atomic loads, stores and a compare-exchange on one machine word, for Shank's lock-free read
// paths, and one question to the Swift runtime. `Synchronization.Atomic` needs macOS 15 and
// iOS 18; these keep the package's older floor with one implementation on every platform. Not
// API: Shank's own use only.
#ifndef SHANK_ATOMICS_H
#define SHANK_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

static inline __attribute__((always_inline)) uintptr_t
_shank_load_acquiring(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) uintptr_t
_shank_load_relaxed(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void
_shank_store_releasing(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

static inline __attribute__((always_inline)) bool
_shank_compare_exchange_acquiring(uintptr_t *word, uintptr_t expected, uintptr_t desired) {
  return __atomic_compare_exchange_n(
    word, &expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

// This thread's resolution trace, a retained Swift object, or NULL before the thread's first
// resolution. A C thread-local is read in a couple of instructions where pthread_getspecific
// is a call, and every resolution reads it. Shank's pthread key releases the trace, and
// clears this, when the thread ends.
extern __thread void *_shank_current_trace;

static inline __attribute__((always_inline)) void *
_shank_trace(void) {
  return _shank_current_trace;
}

static inline __attribute__((always_inline)) void
_shank_set_trace(void *trace) {
  _shank_current_trace = trace;
}

// The root container this thread is reading, or 0: its hazard slot. A container that
// `build()` replaced is freed only once no thread's slot holds it, which keeps every read of
// the root lock-free. The slot lives as long as its thread; Shank registers its address when
// the thread first resolves and unregisters it when the thread ends.
extern __thread uintptr_t _shank_current_hazard;

static inline __attribute__((always_inline)) uintptr_t
_shank_hazard(void) {
  return _shank_current_hazard;
}

static inline __attribute__((always_inline)) uintptr_t *
_shank_hazard_address(void) {
  return &_shank_current_hazard;
}

// Puts back what the slot held before a read began: 0 after an outermost read, or the root
// an outer read of this thread still reads.
static inline __attribute__((always_inline)) void
_shank_restore_hazard(uintptr_t saved) {
  __atomic_store_n(&_shank_current_hazard, saved, __ATOMIC_RELEASE);
}

// Loads `*word` into this thread's hazard slot and returns it, once the slot is known to have
// been set before any later replacement of `*word` could scan the slots: the sequentially
// consistent store and load pair with the replacer's store and scan, so either this thread
// sees the newer value and tries again, or the replacer sees the slot.
static inline __attribute__((always_inline)) uintptr_t
_shank_protect(const uintptr_t *word) {
  uintptr_t value = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    __atomic_store_n(&_shank_current_hazard, value, __ATOMIC_SEQ_CST);
    uintptr_t again = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    if (again == value) return value;
    value = again;
  }
}

// The built root's address, or 0, and whether any task ever installed overrides or a scope:
// plain globals rather than fields of a Swift static, so that a resolution reads each with
// one load and no check that the static was initialized. Shank's `Root` writes them.
extern uintptr_t _shank_latest_root;
extern uintptr_t _shank_overrides_installed;

static inline __attribute__((always_inline)) uintptr_t *
_shank_latest_root_address(void) {
  return &_shank_latest_root;
}

static inline __attribute__((always_inline)) uintptr_t
_shank_may_have_overrides(void) {
  return __atomic_load_n(&_shank_overrides_installed, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void
_shank_note_overrides_installed(void) {
  __atomic_store_n(&_shank_overrides_installed, 1, __ATOMIC_RELAXED);
}

// 1 while an observer of resolutions is installed. A plain global rather than a Swift
// static, whose every read would first check that it was initialized.
extern uintptr_t _shank_observing;

static inline __attribute__((always_inline)) uintptr_t
_shank_is_observing(void) {
  return __atomic_load_n(&_shank_observing, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void
_shank_set_observing(uintptr_t value) {
  __atomic_store_n(&_shank_observing, value, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) uintptr_t
_shank_fetch_or_releasing(uintptr_t *word, uintptr_t bits) {
  return __atomic_fetch_or(word, bits, __ATOMIC_RELEASE);
}

static inline __attribute__((always_inline)) uintptr_t
_shank_load_sequential(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void
_shank_store_sequential(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}

// Whether the calling code runs on the serial executor whose two words these are (an
// `UnownedSerialExecutor`'s): 1 or 0, asked of the Swift runtime without trapping, or -1 where
// the runtime lacks the function. Defined in Atomics.c, the one place that names it.
int _shank_is_current_executor(const void *identity, uintptr_t implementation);

#endif
