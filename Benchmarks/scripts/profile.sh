#!/usr/bin/env bash
# Instructions per operation for each scenario, counted by callgrind: stable where wall-clock
# time is not. Run from Benchmarks/. Needs valgrind (Debian: apt-get install valgrind) and
# objcopy (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product ShankProfile >/dev/null 2>&1 || swift build -c release --product ShankProfile
out=$(mktemp -d)
# valgrind 3.19 gives up on the DWARF that Swift 6.3 writes ("Possibly corrupted debuginfo
# file"); a copy without it keeps the symbols, which is all callgrind_annotate needs.
objcopy --strip-debug .build/release/ShankProfile "$out/ShankProfile"
collected() {  # valgrind arguments...: the instructions it collected
  valgrind --tool=callgrind "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per() {  # scenario, instructions, operations
  printf '%-20s %10.0f instructions per operation\n' "$1" "$(awk -v t="$2" -v n="$3" 'BEGIN { print t / n }')"
}
count() {  # scenario, operations, [modules]: only the scenario's `measured…` function
  per "$1" "$(collected --callgrind-out-file="$out/cg.$1" --toggle-collect='*measured*' \
    "$out/ShankProfile" "$1" "$2" "${3:-10}")" "$2"
}
count_all() {  # scenario, operations: the whole program, every thread, 2n runs less n runs
  local one two
  one=$(collected --callgrind-out-file="$out/cg.$1.n" "$out/ShankProfile" "$1" "$2")
  two=$(collected --callgrind-out-file="$out/cg.$1.2n" "$out/ShankProfile" "$1" "$((2 * $2))")
  per "$1" "$((two - one))" "$2"
}
for s in s1 s1-main s1-swinject s1-hand s2 s2-hand s3 s3-swinject s3-hand s6 s6-swinject s6-hand s6-dictionary; do
  count "$s" 10000
done
count s5 20 1000
count s5-build 20 1000
count s5-swinject 20 1000
count s5-build-swinject 20 1000
for s in s10-own s10-parent s10-own-swinject s10-parent-swinject s12 s12-swinject; do
  count "$s" 10000
done
# A scope's close() runs its handlers on a task of its own, on another thread, which a count
# of one function on one thread would miss; Swinject's side is counted the same way.
count_all s11 10000
count_all s11-swinject 10000
echo "callgrind files: $out (callgrind_annotate --inclusive=yes $out/cg.s1)"
