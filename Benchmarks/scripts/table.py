#!/usr/bin/env python3
"""Turns one benchmark run into the tables of Benchmarks/README.md.

    swift package --disable-sandbox benchmark --format histogramEncoded \
        --path .build/benchmark-results --no-progress
    python3 scripts/table.py .build/benchmark-results > .build/benchmark-results/table.md

Reads the HdrHistogram files that `--format histogramEncoded` writes (one per benchmark and
metric, raw values per sample), divides by the operations each sample holds, and prints the
median with the interquartile range, the ratios against Swinject and hand-written Swift, and
every performance goal as met or missed. Every ratio comes from medians of this one run.
"""
import json
import os
import sys

# (scenario, contender, benchmark name, operations per sample)
ROWS = [
    ("S1 resolve by type, new instance, 10 modules", "Shank", "S1 resolve by type: Shank", 1000),
    ("S1 resolve by type, new instance, 10 modules", "Swinject", "S1 resolve by type: Swinject", 1000),
    ("S1 resolve by type, new instance, 10 modules", "swift-dependencies", "S1 resolve by type: swift-dependencies", 1000),
    ("S1 resolve by type, new instance, 10 modules", "hand-written", "S1 resolve by type: hand-written", 1000),
    ("S2 property read after the first", "Shank", "S2 property read: Shank @Inject", 1000),
    ("S2 property read after the first", "swift-dependencies", "S2 property read: swift-dependencies @Dependency", 1000),
    ("S2 property read after the first", "hand-written", "S2 property read: hand-written stored let", 1000),
    ("S2 property read after the first", "hand-written, stored var", "S2 property read: hand-written stored var", 1000),
    ("S2 property read after the first", "hand-written, computed property", "S2 property read: hand-written computed property", 1000),
]
for count in (10, 1000, 100000):
    scenario = "S3 resolve by name" if count == 10 else "S4 resolve by name"
    label = f"{scenario}, {count} modules"
    title = f"{scenario}, {count:,} modules"
    ROWS += [
        (title, "Shank", f"{label}: Shank", 1000),
        (title, "Swinject", f"{label}: Swinject", 1000),
        (title, "hand-written", f"{label}: hand-written dictionary", 1000),
    ]
ROWS += [
    ("S4 a miss among 100,000 names, message written", "Shank",
     "S4 a miss among 100,000 names, message written: Shank", 1),
    ("S5 build a 1,000-module root", "Shank", "S5 build 1,000-module root: Shank", 1),
    ("S5 build a 1,000-module root", "Swinject", "S5 build 1,000-module root: Swinject", 1),
    ("S5 build a 1,000-module root", "hand-written", "S5 build 1,000-module root: hand-written dictionary", 1),
    ("S6 singleton resolve", "Shank", "S6 singleton: Shank .singleton", 1000),
    ("S6 singleton resolve", "Swinject", "S6 singleton: Swinject .container", 1000),
    ("S6 singleton resolve", "swift-dependencies", "S6 singleton: swift-dependencies liveValue", 1000),
    ("S6 singleton resolve", "hand-written", "S6 singleton: hand-written static let", 1000),
    ("S6 five-object graph from component()", "Shank", "S6 five-object graph: Shank module component()", 1000),
    ("S6 five-object graph from component()", "hand-written", "S6 five-object graph: hand-written constructors", 1000),
]
S7_CONTENDERS = [
    ("Shank", "Shank", 100000),
    ("Shank singleton", "Shank singleton", 100000),
    ("Swinject", "Swinject synchronized", 10000),
    ("swift-dependencies", "swift-dependencies", 10000),
    ("hand-written", "unlocked read-only dictionary", 100000),
    ("hand-written, shared instance", "unlocked read-only dictionary, shared instance", 100000),
]
for threads in ("1 thread", "2 threads"):
    for contender, name, per_thread in S7_CONTENDERS:
        ops = per_thread * (2 if threads == "2 threads" else 1)
        ROWS.append((f"S7 {threads}, time per resolution", contender, f"S7 {threads}: {name}", ops))
for key in ("overridden key", "key from the root"):
    ROWS += [
        (f"S8 inside an override, {key}", "Shank", f"S8 inside override, {key}: Shank withOverrides", 1000),
        (f"S8 inside an override, {key}", "Swinject", f"S8 inside override, {key}: Swinject child container", 1000),
        (f"S8 inside an override, {key}", "swift-dependencies", f"S8 inside override, {key}: swift-dependencies withDependencies", 1000),
    ]
ROWS += [
    ("S8 enter an override and resolve once", "Shank", "S8 enter override and resolve once: Shank withOverrides", 1000),
    ("S8 enter an override and resolve once", "swift-dependencies", "S8 enter override and resolve once: swift-dependencies withDependencies", 1000),
    ("S9 verify() of 1,000 modules", "Shank", "S9 verify 1,000 modules: Shank", 1),
]

# Lifetimes (S10–S12): Shank beside Swinject's containers doing the same.
for key, label in (("own key", "own key"), ("key from the parent", "key from the parent")):
    ROWS += [
        (f"S10 child container, {label}", "Shank", f"S10 child container, {key}: Shank", 1000),
        (f"S10 child container, {label}", "Swinject", f"S10 child container, {key}: Swinject", 1000),
    ]
ROWS += [
    ("S11 scope entered, singleton resolved, closed", "Shank", "S11 scope entered, singleton resolved, closed: Shank withScope", 1000),
    ("S11 scope entered, singleton resolved, closed", "Swinject", "S11 scope entered, singleton resolved, closed: Swinject child container", 1000),
    ("S12 replace the root, 10 modules", "Shank", "S12 replace the root, 10 modules: Shank build()", 1000),
    ("S12 replace the root, 10 modules", "Swinject", "S12 replace the root, 10 modules: Swinject new container", 1000),
]

# Contributions, decorators and observation (S13–S15): Shank beside hand-written Swift.
COMPOSITION = [
    ("S13 resolve [P] of ten contributions", "S13 ten contributions as [P]: Shank",
     "S13 ten contributions as [P]: hand-written array of closures", "S13 ten contributions, timed in turn"),
    ("S14 decorated resolve", "S14 decorated resolve: Shank",
     "S14 decorated resolve: hand-written factory then wrap", "S14 decorated resolve, timed in turn"),
    ("S15 resolve with one observer", "S15 observed resolve: Shank",
     "S15 observed resolve: hand-written call and callback", "S15 observed resolve, timed in turn"),
]
for scenario, shank_name, hand_name, _ in COMPOSITION:
    ROWS += [
        (scenario, "Shank", shank_name, 1000),
        (scenario, "hand-written", hand_name, 1000),
    ]

# Runs timed in turn within each sample of one benchmark, for the goals that compare runs:
# (scenario, contender, benchmark name, metric, operations per sample)
IN_TURN = [
    ("S4 resolve by name, timed in turn", f"Shank container's resolve, {count:,} modules",
     "S4 resolve by name, sizes timed in turn", f"Shank {count} modules", 1000)
    for count in (10, 1000, 100000)
] + [
    ("S4 resolve by name, timed in turn", f"hand-written, {count:,} modules",
     "S4 resolve by name, sizes timed in turn", f"hand-written {count} modules", 1000)
    for count in (10, 1000, 100000)
] + [
    ("S6 five-object graph, timed in turn", "Shank", "S6 five-object graph, timed in turn",
     "Shank module component()", 1000),
    ("S6 five-object graph, timed in turn", "hand-written", "S6 five-object graph, timed in turn",
     "hand-written constructors", 1000),
]

S7_IN_TURN = ["Shank", "Shank singleton", "dictionary", "dictionary, shared instance"]
for contender in S7_IN_TURN:
    for threads in (1, 2):
        label = "1 thread" if threads == 1 else "2 threads"
        IN_TURN.append(("S7 timed in turn, time per resolution", f"{contender}, {label}",
                        "S7 timed in turn", f"{contender}, {label}", threads * 100000))

# The lifetimes' in-turn runs: (scenario, benchmark, Shank's metric, Swinject's metric).
LIFETIMES_IN_TURN = [
    ("S10 child container, own key", "S10 child container, timed in turn", "Shank own key", "Swinject own key"),
    ("S10 child container, key from the parent", "S10 child container, timed in turn",
     "Shank key from the parent", "Swinject key from the parent"),
    ("S11 scope entered, singleton resolved, closed", "S11 scope, timed in turn", "Shank withScope",
     "Swinject child container"),
    ("S12 replace the root, 10 modules", "S12 replace the root, timed in turn", "Shank build()",
     "Swinject new container"),
]
for scenario, name, shank_metric, swinject_metric in LIFETIMES_IN_TURN:
    IN_TURN += [
        (f"{scenario}, timed in turn", "Shank", name, shank_metric, 1000),
        (f"{scenario}, timed in turn", "Swinject", name, swinject_metric, 1000),
    ]
for scenario, _, _, name in COMPOSITION:
    IN_TURN += [
        (f"{scenario}, timed in turn", "Shank", name, "Shank", 1000),
        (f"{scenario}, timed in turn", "hand-written", name, "hand-written", 1000),
    ]

MEMORY = [
    ("per @Inject property, unread", "Shank", "Memory per @Inject property, unread: Shank", 1000),
    ("per @Inject property, after first read", "Shank", "Memory per @Inject property, after first read: Shank", 1000),
    ("per @Dependency property, after first read", "swift-dependencies", "Memory per @Dependency property, after first read: swift-dependencies", 1000),
    ("per registered module (1,000 kept)", "Shank", "Memory per registered module, 1,000 modules kept: Shank", 1000),
    ("per registered module (1,000 kept)", "Swinject", "Memory per registered module, 1,000 modules kept: Swinject", 1000),
    ("per registered module (1,000 kept)", "hand-written", "Memory per registered module, 1,000 modules kept: hand-written dictionary", 1000),
    ("per registered module, made and dropped (S5)", "Shank", "S5 build 1,000-module root: Shank", 1000),
    ("per registered module, made and dropped (S5)", "Swinject", "S5 build 1,000-module root: Swinject", 1000),
    ("per registered module, made and dropped (S5)", "hand-written", "S5 build 1,000-module root: hand-written dictionary", 1000),
    ("per scope entered and closed (S11)", "Shank", "S11 scope entered, singleton resolved, closed: Shank withScope", 1000),
    ("per scope entered and closed (S11)", "Swinject", "S11 scope entered, singleton resolved, closed: Swinject child container", 1000),
    ("per 10-module root replaced (S12)", "Shank", "S12 replace the root, 10 modules: Shank build()", 1000),
    ("per 10-module root replaced (S12)", "Swinject", "S12 replace the root, 10 modules: Swinject new container", 1000),
]


def load(directory, name, metric):
    """The recorded values of one benchmark's metric, as (value, count) pairs, or None."""
    file = f"Current_run.ShankBenchmarks.{name.replace(' ', '_')}.{metric.replace(' ', '_')}.histogram.json"
    path = os.path.join(directory, file)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        h = json.load(f)
    half_magnitude = h["subBucketHalfCountMagnitude"]
    half_count = 1 << half_magnitude
    unit_magnitude = 64 - h["leadingZeroCountBase"] - half_magnitude - 1
    values = []
    for index, count in enumerate(h["counts"]):
        if count == 0:
            continue
        bucket = (index >> half_magnitude) - 1
        sub_bucket = (index & (half_count - 1)) + half_count
        if bucket < 0:
            sub_bucket -= half_count
            bucket = 0
        values.append((sub_bucket << (bucket + unit_magnitude), count))
    return values


def percentile(values, p):
    total = sum(count for _, count in values)
    wanted = max(1, round(total * p / 100))
    seen = 0
    for value, count in values:
        seen += count
        if seen >= wanted:
            return value
    return values[-1][0]


def stats(directory, name, metric, ops):
    values = load(directory, name, metric)
    if values is None:
        return None
    samples = sum(count for _, count in values)
    return {
        "p25": percentile(values, 25) / ops,
        "p50": percentile(values, 50) / ops,
        "p75": percentile(values, 75) / ops,
        "samples": samples,
    }


def duration(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def ratio(a, b):
    return f"{a / b:.2f}×" if a and b else "n/a"


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else ".build/benchmark-results"
    results = {}
    for scenario, contender, name, ops in ROWS:
        results[(scenario, contender)] = stats(directory, name, "wallClock", ops)

    def median(scenario, contender):
        s = results.get((scenario, contender))
        return s["p50"] if s else None

    print("| Scenario | Contender | Median | p25–p75 | Samples | ÷ Swinject | ÷ hand-written |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for scenario, contender, name, ops in ROWS:
        s = results[(scenario, contender)]
        if s is None:
            print(f"| {scenario} | {contender} | not run | | | | |")
            continue
        swinject = median(scenario, "Swinject")
        hand = median(scenario, "hand-written")
        print(
            f"| {scenario} | {contender} | {duration(s['p50'])} | "
            f"{duration(s['p25'])}–{duration(s['p75'])} | {s['samples']} | "
            f"{ratio(s['p50'], swinject) if swinject else 'n/a'} | "
            f"{ratio(s['p50'], hand) if hand else 'n/a'} |"
        )

    print()
    print("Timed in turn within each sample, so that every run of a comparison meets the same machine")
    print("(S7: wall time of the sample's run ÷ all resolutions of its threads):")
    print()
    print("| Scenario | Contender | Median | p25–p75 | Samples |")
    print("| --- | --- | ---: | ---: | ---: |")
    in_turn = {}
    for scenario, contender, name, metric, ops in IN_TURN:
        s = in_turn[(scenario, contender)] = stats(directory, name, metric, ops)
        if s is None:
            print(f"| {scenario} | {contender} | not run | | |")
        else:
            print(f"| {scenario} | {contender} | {duration(s['p50'])} | "
                  f"{duration(s['p25'])}–{duration(s['p75'])} | {s['samples']} |")

    def in_turn_median(scenario, contender):
        s = in_turn.get((scenario, contender))
        return s["p50"] if s else None

    print()
    print("Lifetimes, timed in turn (Shank ÷ Swinject from the medians of the same benchmark):")
    print()
    print("| Scenario | Shank | Swinject | Shank ÷ Swinject |")
    print("| --- | ---: | ---: | ---: |")
    for scenario, *_ in LIFETIMES_IN_TURN:
        shank = in_turn_median(f"{scenario}, timed in turn", "Shank")
        swinject = in_turn_median(f"{scenario}, timed in turn", "Swinject")
        if shank is None or swinject is None:
            print(f"| {scenario} | not run | | |")
        else:
            print(f"| {scenario} | {duration(shank)} | {duration(swinject)} | {shank / swinject:.3g}× |")

    print()
    print("Contributions, decorators and observation, timed in turn (Shank ÷ hand-written from the")
    print("medians of the same benchmark):")
    print()
    print("| Scenario | Shank | hand-written | Shank ÷ hand-written |")
    print("| --- | ---: | ---: | ---: |")
    for scenario, *_ in COMPOSITION:
        shank = in_turn_median(f"{scenario}, timed in turn", "Shank")
        hand = in_turn_median(f"{scenario}, timed in turn", "hand-written")
        if shank is None or hand is None:
            print(f"| {scenario} | not run | | |")
        else:
            print(f"| {scenario} | {duration(shank)} | {duration(hand)} | {shank / hand:.3g}× |")

    print()
    print("| Memory | Contender | Allocations made | Allocations kept | Bytes kept | Bytes allocated |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")

    def cell(name, metric, per, digits):
        s = stats(directory, name, metric, per)
        return f"{s['p50']:.{digits}f}" if s else "–"

    for what, contender, name, per in MEMORY:
        print(
            f"| {what} | {contender} | {cell(name, 'mallocCountTotal', per, 2)} | "
            f"{cell(name, 'mallocFreeDelta', per, 2)} | {cell(name, 'memoryLeakedBytes', per, 0)} | "
            f"{cell(name, 'mallocBytesCount', per, 0)} |"
        )

    print()
    print("| Goal | Measured | Met |")
    print("| --- | ---: | :---: |")

    def goal(text, value, ok):
        if value is None:
            print(f"| {text} | not run | |")
        else:
            print(f"| {text} | {value} | {'yes' if ok else '**no**'} |")

    def both(a, b):
        return a is not None and b is not None

    s1 = "S1 resolve by type, new instance, 10 modules"
    shank, swinject, hand = median(s1, "Shank"), median(s1, "Swinject"), median(s1, "hand-written")
    if both(shank, swinject):
        goal("S1 Shank at least 30× faster than Swinject", f"{swinject / shank:.2f}×", swinject / shank >= 30)
    if both(shank, hand):
        goal("S1 Shank at most 6× a hand-written factory closure", f"{shank / hand:.2f}×", shank / hand <= 6)

    s2 = "S2 property read after the first"
    shank, hand = median(s2, "Shank"), median(s2, "hand-written")
    if both(shank, hand):
        goal("S2 @Inject read at most 1.5× a stored property read (a `let`)", f"{shank / hand:.2f}×", shank / hand <= 1.5)
    stored_var = median(s2, "hand-written, stored var")
    if both(shank, stored_var):
        goal("S2 the same against a stored `var`", f"{shank / stored_var:.2f}×", shank / stored_var <= 1.5)
    computed = median(s2, "hand-written, computed property")
    if both(shank, computed):
        goal("S2 the same against a computed property over a `let`", f"{shank / computed:.2f}×", shank / computed <= 1.5)

    s3 = "S3 resolve by name, 10 modules"
    shank, swinject = median(s3, "Shank"), median(s3, "Swinject")
    if both(shank, swinject):
        goal("S3 Shank at least 25× faster than Swinject", f"{swinject / shank:.2f}×", swinject / shank >= 25)
    sizes = [in_turn_median("S4 resolve by name, timed in turn", f"Shank container's resolve, {count:,} modules")
             for count in (10, 1000, 100000)]
    text = "S4 flat: slowest ÷ fastest of 10, 1,000, 100,000, timed in turn, within 1.2×"
    if all(x is not None for x in sizes):
        spread = max(sizes) / min(sizes)
        goal(text, f"{spread:.2f}×", spread <= 1.2)
    else:
        goal(text, None, False)
    sizes = [median(s3, "Shank"), median("S4 resolve by name, 1,000 modules", "Shank"),
             median("S4 resolve by name, 100,000 modules", "Shank")]
    if all(x is not None for x in sizes):
        spread = max(sizes) / min(sizes)
        print(f"| S4 the same from the three separate benchmarks, for reference | {spread:.2f}× | |")

    s5 = "S5 build a 1,000-module root"
    shank, swinject = median(s5, "Shank"), median(s5, "Swinject")
    if both(shank, swinject):
        goal("S5 Shank at least 4× faster than Swinject", f"{swinject / shank:.2f}×", swinject / shank >= 4)
    faults = [stats(directory, f"S5 build 1,000-module root: {c}", "Page faults", 1)
              for c in ("Shank", "Swinject", "hand-written dictionary")]
    if all(faults):
        shown = " / ".join(f"{f['p50']:.0f}" for f in faults)
        print(f"| S5 pages faulted per build, median: Shank / Swinject / hand-written | {shown} | |")

    s6 = "S6 singleton resolve"
    shank, swinject = median(s6, "Shank"), median(s6, "Swinject")
    if both(shank, swinject):
        goal("S6 singleton at least 20× faster than Swinject .container", f"{swinject / shank:.2f}×", swinject / shank >= 20)
    g = "S6 five-object graph, timed in turn"
    shank, hand = in_turn_median(g, "Shank"), in_turn_median(g, "hand-written")
    text = "S6 five-object graph, timed in turn, at most 1.5× hand-written"
    if both(shank, hand):
        goal(text, f"{shank / hand:.2f}×", shank / hand <= 1.5)
    else:
        goal(text, None, False)
    g = "S6 five-object graph from component()"
    shank, hand = median(g, "Shank"), median(g, "hand-written")
    if both(shank, hand):
        print(f"| S6 the same from the two separate benchmarks, for reference | {shank / hand:.2f}× | |")

    def scaling(contender):
        one = median("S7 1 thread, time per resolution", contender)
        two = median("S7 2 threads, time per resolution", contender)
        return one / two if both(one, two) else None  # throughput(2) ÷ throughput(1)

    def scaling_in_turn(contender):
        one = in_turn_median("S7 timed in turn, time per resolution", f"{contender}, 1 thread")
        two = in_turn_median("S7 timed in turn, time per resolution", f"{contender}, 2 threads")
        return one / two if both(one, two) else None

    for contender in S7_IN_TURN:
        s = scaling_in_turn(contender)
        if s is not None:
            print(f"| S7 two-thread scaling, timed in turn, {contender} (throughput 2 threads ÷ 1) | {s:.2f}× | |")
    base, shared_base = scaling_in_turn("dictionary"), scaling_in_turn("dictionary, shared instance")
    s = scaling_in_turn("Shank")
    text = "S7 Shank scaling, timed in turn, at least 0.9× the unlocked dictionary's"
    if s is not None and base:
        goal(text, f"{s / base:.2f}×", s / base >= 0.9)
    else:
        goal(text, None, False)
    s = scaling_in_turn("Shank singleton")
    if s is not None and shared_base:
        goal("S7 Shank singleton scaling, timed in turn, at least 0.9× the dictionary's "
             "(shared instance; a goal of our own)", f"{s / shared_base:.2f}×", s / shared_base >= 0.9)
    for contender, *_ in S7_CONTENDERS:
        s = scaling(contender)
        if s is not None:
            print(f"| S7 two-thread scaling, separate benchmarks, {contender} | {s:.2f}× | |")
    base, shared_base = scaling("hand-written"), scaling("hand-written, shared instance")
    s = scaling("Shank")
    if s is not None and base:
        print(f"| S7 Shank ÷ dictionary scaling from the separate benchmarks, for reference | {s / base:.2f}× | |")
    s = scaling("Shank singleton")
    if s is not None and shared_base:
        print(f"| S7 Shank singleton ÷ dictionary (shared instance), separate benchmarks, for reference "
              f"| {s / shared_base:.2f}× | |")


if __name__ == "__main__":
    main()
