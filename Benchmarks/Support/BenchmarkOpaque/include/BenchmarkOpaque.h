// An optimization barrier that costs no instruction, for the benchmarks' loops.
#ifndef SHANK_BENCHMARK_OPAQUE_H
#define SHANK_BENCHMARK_OPAQUE_H

/// Returns `pointer` unchanged, through an empty `asm` statement that the optimizer must assume
/// changes it. No instruction is emitted, but what a loop reads through the result it reads at
/// every iteration: the read cannot be hoisted out of the loop or folded away.
static inline __attribute__((always_inline)) void *_Nonnull shank_opaque(void *_Nonnull pointer) {
  __asm__ volatile("" : "+r"(pointer));
  return pointer;
}

#endif
