#!/usr/bin/env bash
# Instructions per operation for each scenario, counted by callgrind: stable where wall-clock
# time is not. Prints the Markdown table of Benchmarks/README.md's Results; run from anywhere.
# Needs valgrind (Debian: apt-get install valgrind) and objcopy (binutils).
#
#   bash scripts/profile.sh            # every scenario, about 7 minutes on 2 cores
#   bash scripts/profile.sh s1 s1-hand # only these scenarios, one line each
#
# Each cell is the instructions that callgrind collects inside `measured(_:_:)` (one scenario's
# loop: the operation, the loop's counter and the fold of its result into a sum), divided by
# the operations the loop ran. Swift's dictionaries hash with a per-process seed, which moves
# Swinject's and swift-dependencies' counts by a few percent; SWIFT_DETERMINISTIC_HASHING=1
# fixes the seed, so the table repeats to the instruction.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_DETERMINISTIC_HASHING=1
# --disable-sandbox as `swift package --disable-sandbox benchmark` builds, so the two share one
# release build rather than recompiling every module in turn.
swift build --disable-sandbox -c release --product ShankProfile >/dev/null 2>&1 \
  || swift build --disable-sandbox -c release --product ShankProfile
out=$(mktemp -d)
# valgrind 3.19 gives up on the DWARF that Swift 6.3 writes ("Possibly corrupted debuginfo
# file"); a copy without it keeps the symbols, which is all callgrind_annotate needs.
objcopy --strip-debug .build/release/ShankProfile "$out/ShankProfile"

collected() {  # valgrind arguments...: the instructions it collected
  valgrind --tool=callgrind "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per() {  # instructions, operations: per operation, rounded
  LC_ALL=C awk -v t="$1" -v n="$2" 'BEGIN { printf "%.0f\n", t / n }'
}
grouped() {  # a number, or n/a: with thousands separators
  LC_ALL=C awk -v v="$1" 'BEGIN {
    if (v == "n/a") { print v; exit }
    s = ""
    while (length(v) > 3) { s = "," substr(v, length(v) - 2) s; v = substr(v, 1, length(v) - 3) }
    print v s }'
}
ratio() {  # a, b: a ÷ b, or empty when either is n/a
  LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "n/a" || b == "n/a" || b == 0) print ""; else printf "%.2f×\n", a / b }'
}
count() {  # scenario, operations, [modules]: only the scenario's `measured…` function
  per "$(collected --callgrind-out-file="$out/cg.$1" --toggle-collect='*measured*' \
    "$out/ShankProfile" "$1" "$2" "${3:-10}")" "$2"
}
count_all() {  # scenario, operations: the whole program, every thread, 2n runs less n runs
  local one two
  one=$(collected --callgrind-out-file="$out/cg.$1.n" "$out/ShankProfile" "$1" "$2")
  two=$(collected --callgrind-out-file="$out/cg.$1.2n" "$out/ShankProfile" "$1" "$((2 * $2))")
  per "$((two - one))" "$2"
}
per_module() {  # modules: S9 with misses, the whole program, 2 verify() less 1, per module
  local one two
  one=$(collected --callgrind-out-file="$out/cg.s9.1" "$out/ShankProfile" s9-miss 1 "$1")
  two=$(collected --callgrind-out-file="$out/cg.s9.2" "$out/ShankProfile" s9-miss 2 "$1")
  per "$((two - one))" "$1"
}
cell() {  # scenario or "-": its count, or n/a
  case "$1" in
    -) echo "n/a" ;;
    s4-miss) count "$1" 5 100000 ;;
    s5*) count "$1" 20 1000 ;;
    s11*) count_all "$1" 10000 ;;  # a scope closes on another thread: see below
    s9-miss-*) per_module "${1#s9-miss-}" ;;  # verify() makes modules on a thread of its own
    *) count "$1" 10000 ;;
  esac
}
row() {  # label, Shank, Swinject, swift-dependencies, hand-written scenario (or -), [note]
  local label=$1 note=${6:-} shank swinject dependencies hand
  shank=$(cell "$2") swinject=$(cell "$3") dependencies=$(cell "$4") hand=$(cell "$5")
  printf '| %s | %s | %s | %s | %s%s | %s | %s |\n' "$label" "$(grouped "$shank")" \
    "$(grouped "$swinject")" "$(grouped "$dependencies")" "$(grouped "$hand")" "$note" \
    "$(ratio "$shank" "$hand")" "$(ratio "$swinject" "$shank")"
}

if [ $# -gt 0 ]; then
  for s in "$@"; do printf '%-20s %s instructions per operation\n' "$s" "$(grouped "$(cell "$s")")"; done
  echo "callgrind files: $out (callgrind_annotate --inclusive=yes $out/cg.$1)" >&2
  exit 0
fi

echo '| Scenario | Shank | Swinject | swift-dependencies | hand-written | Shank ÷ hand-written | Swinject ÷ Shank |'
echo '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'
row "S1 resolve by type, new instance" s1 s1-swinject s1-dependencies s1-hand " (a stored closure)"
row "S1, root registered from main-actor code" s1-main - - -
row "S2 property read after the first" s2 - s2-dependencies s2-hand " (a stored \`let\`)"
row "S2, hand-written stored \`var\`" - - - s2-var
row "S2, hand-written computed property over a \`let\`" - - - s2-computed
row "S3 resolve by name, 10 modules" s3 s3-swinject - s3-hand " (a dictionary of closures)"
row "S4 a miss among 100,000 names, message written" s4-miss - - -
row "S6 singleton" s6 s6-swinject s6-dependencies s6-hand " (\`static let\`)"
row "S6 singleton, from a dictionary of closures" - - - s6-dictionary
row "S5 build a 1,000-module root" s5-build s5-build-swinject - -
row "S5 build and free a 1,000-module root" s5 s5-swinject - -
row "S10 child container, own key" s10-own s10-own-swinject - -
row "S10 child container, key from the parent" s10-parent s10-parent-swinject - -
# A scope's close() runs its handlers on a task of its own, on another thread, which a count
# of one function on one thread would miss: S11 counts the whole program, every thread, as the
# run of 20,000 less the run of 10,000. Swinject's side is counted the same way.
row "S11 scope entered, singleton resolved, closed (whole program)" s11 s11-swinject - -
row "S12 replace the root, 10 modules" s12 s12-swinject - -
# verify() makes modules on a thread of its own: counted as S11 is, the whole program, per module.
row "S9 \`verify()\` per module, 1,000 modules each missing a key (whole program)" s9-miss-1000 - - -
row "S9 \`verify()\` per module, 8,000 modules each missing a key (whole program)" s9-miss-8000 - - -
row "S13 resolve \`[P]\` of ten contributions" s13 - - s13-hand " (ten closures into an array)"
row "S14 decorated resolve" s14 - - s14-hand " (factory, then a wrapping closure)"
row "S15 resolve with one observer" s15 - - s15-hand " (factory timed, then a callback with an event)"
echo "callgrind files: $out (callgrind_annotate --inclusive=yes $out/cg.s1)" >&2
