#!/usr/bin/env bash
# Instructions per operation for each scenario, counted by callgrind: stable where wall-clock
# time is not. Run from Benchmarks/. Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product ShankProfile >/dev/null 2>&1 || swift build -c release --product ShankProfile
out=$(mktemp -d)
count() {  # scenario, operations, [modules]
  local total
  total=$(valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" --toggle-collect='*measured*' \
    .build/release/ShankProfile "$1" "$2" "${3:-10}" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  printf '%-12s %10.0f instructions per operation\n' "$1" "$(awk -v t="$total" -v n="$2" 'BEGIN { print t / n }')"
}
for s in s1 s1-main s1-swinject s1-hand s2 s2-hand s3 s3-swinject s3-hand s6 s6-swinject s6-hand s6-dictionary; do
  count "$s" 10000
done
count s5 20 1000
count s5-build 20 1000
count s5-swinject 20 1000
count s5-build-swinject 20 1000
echo "callgrind files: $out (callgrind_annotate --inclusive=yes $out/cg.s1)"
