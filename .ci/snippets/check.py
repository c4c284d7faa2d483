#!/usr/bin/env python3
"""Type-checks every ```swift block of README.md and of the DocC articles.

The blocks of one Markdown file are one program, in order, like a playground's pages: a
later block may use what an earlier one declares. They become the `main.swift` of one
`swiftc -typecheck` run, so top-level statements, `Module { }` lists and `@Test` functions
need no wrapping, and `#sourceLocation` makes every diagnostic name the Markdown file and line.
Each run imports Foundation, Shank, ShankTesting, Testing and `SnippetPrelude`
(.ci/snippets/Prelude.swift: the placeholder types the snippets use without declaring them,
compiled once). A block's own declaration shadows the prelude's of the same name. What needs
a page's own types (a stub conforming to a protocol the page declares, a value a block uses
without declaring) goes in .ci/snippets/pages/<Page>.swift, compiled with each program of
that page.

An HTML comment on the line before a fence, invisible on GitHub and in DocC, changes how the
block is checked; options are separated by commas:

  <!-- snippet: skip (reason) -->   not compiled; the reason is required and printed
  <!-- snippet: alone -->           its own program, apart from the page's other blocks
  <!-- snippet: no-prelude -->      without SnippetPrelude (a block importing the sample app)
  <!-- snippet: main-actor -->      compiled with default MainActor isolation, as an app target
                                    is, together with the page's other blocks marked so
  <!-- snippet: xctest -->          the body of an XCTestCase subclass
  <!-- snippet: manifest -->        a Package.swift, or the arguments of `Package(name:)`,
                                    checked against PackageDescription

Usage: python3 .ci/snippets/check.py [file.md ...]   (default: README.md and the articles)
Exits non-zero, naming the file and line, when a block does not compile.
"""

import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, ".ci", "snippets")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$")
OPTIONS = {"skip", "alone", "no-prelude", "main-actor", "xctest", "manifest"}
IMPORTS = "import Foundation\nimport Shank\nimport ShankTesting\nimport Testing\n"


class Block:
    def __init__(self, path, line, code, options, reason):
        self.path, self.line, self.code = path, line, code
        self.options, self.reason = options, reason


def parse_marker(text, where):
    """Returns the options of a marker and the reason of a skip."""
    reason = None
    match = re.search(r"\((.*)\)", text)
    if match:
        reason = match.group(1).strip()
        text = text[: match.start()] + text[match.end() :]
    options = {o.strip() for o in text.split(",") if o.strip()}
    unknown = options - OPTIONS
    if unknown:
        sys.exit(f"{where}: error: unknown snippet option(s) {sorted(unknown)}")
    if "skip" in options and not reason:
        sys.exit(f"{where}: error: a skipped snippet needs a reason: <!-- snippet: skip (why) -->")
    return options, reason


def blocks_of(path):
    """The ```swift blocks of a Markdown file, with the line of their first line of code."""
    lines = open(path, encoding="utf-8").read().split("\n")
    result, i = [], 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, language = match.groups()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if language == "swift":
            previous = lines[i - 1] if i > 0 else ""
            marker = MARKER.match(previous)
            options, reason = (
                parse_marker(marker.group(1), f"{path}:{i}") if marker else (set(), None)
            )
            code = [l[len(indent) :] if l.startswith(indent) else l for l in lines[i + 1 : end]]
            result.append(Block(path, i + 2, "\n".join(code), options, reason))
        elif MARKER.match(lines[i - 1] if i > 0 else ""):
            sys.exit(f"{path}:{i}: error: a snippet marker before a block that is not ```swift")
        i = end + 1
    return result


def units_of(blocks):
    """Groups the blocks to check: the page's together, those marked `main-actor` together,
    and each `alone` one apart."""
    pages = {False: [], True: []}
    units = []
    for block in blocks:
        if "skip" in block.options:
            continue
        if block.options & {"alone", "manifest", "no-prelude"}:
            units.append([block])
        else:
            pages["main-actor" in block.options].append(block)
    return [page for page in pages.values() if page] + units


def source_of(unit):
    """The main.swift of a unit: imports, then each block at its Markdown file and line."""
    options = unit[0].options
    parts = [IMPORTS if "manifest" not in options else "import PackageDescription\n"]
    if "no-prelude" not in options and "manifest" not in options:
        parts.append("import SnippetPrelude\n")
    if any("xctest" in b.options for b in unit):
        parts.append("import XCTest\n")
    for n, block in enumerate(unit):
        code = block.code
        line = block.line
        if "xctest" in block.options:
            code = f"final class SnippetTestCase{n}: XCTestCase {{\n{code}\n}}"
            line -= 1
        if "manifest" in block.options and "Package(" not in code:
            # The arguments of `Package(name:)`, or one of its targets.
            if code.lstrip().startswith("."):
                code = f'let package = Package(\n  name: "App", targets: [\n{code}\n])'
            else:
                code = f'let package = Package(\n  name: "App",\n{code}\n)'
            line -= 2
        parts.append(f'#sourceLocation(file: "{block.path}", line: {line})\n{code}\n')
        parts.append("#sourceLocation()\n")
    return "".join(parts)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def main():
    os.chdir(ROOT)
    started = time.monotonic()
    files = sys.argv[1:] or ["README.md"] + sorted(
        glob.glob("Sources/Shank/Shank.docc/**/*.md", recursive=True)
    )
    blocks = [b for f in files for b in blocks_of(f)]

    # The modules the snippets import: Shank, ShankTesting, and the sample app for the README's
    # test. With CI's flags, so that this is a no-op after its build, not a rebuild.
    build = run(["swift", "build", "-Xswiftc", "-warnings-as-errors"])
    if build.returncode:
        sys.exit(build.stdout + build.stderr + "\nerror: swift build failed")
    bin_path = run(["swift", "build", "--show-bin-path"]).stdout.strip()
    toolchain = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swiftc"))))
    manifest_api = os.path.join(toolchain, "lib", "swift", "pm", "ManifestAPI")
    common = [
        "swiftc", "-typecheck", "-swift-version", "6", "-suppress-warnings",
        "-I", os.path.join(bin_path, "Modules"),
        "-Xcc", "-fmodule-map-file=" + os.path.join(bin_path, "_ShankAtomics.build", "module.modulemap"),
    ]

    with tempfile.TemporaryDirectory() as scratch:
        prelude = run(
            ["swiftc", "-emit-module", "-parse-as-library", "-module-name", "SnippetPrelude",
             "-emit-module-path", os.path.join(scratch, "SnippetPrelude.swiftmodule")]
            + common[2:] + [os.path.join(HERE, "Prelude.swift")]
        )
        if prelude.returncode:
            sys.exit(prelude.stdout + prelude.stderr + "\nerror: .ci/snippets/Prelude.swift does not compile")

        def check(index_unit):
            index, unit = index_unit
            folder = os.path.join(scratch, str(index))
            os.makedirs(folder)
            main_swift = os.path.join(folder, "main.swift")
            with open(main_swift, "w", encoding="utf-8") as out:
                out.write(source_of(unit))
            options = unit[0].options
            if "manifest" in options:
                command = ["swiftc", "-typecheck", "-suppress-warnings", "-I", manifest_api,
                           "-package-description-version", "6.2", main_swift]
            else:
                command = common + ["-I", scratch, main_swift]
                if "main-actor" in options:
                    command[1:1] = ["-default-isolation", "MainActor"]
                if any(re.search(r"^@main\b", b.code, re.M) for b in unit):
                    command[1:1] = ["-parse-as-library"]  # an `@main` type, no top-level code
                page = os.path.join(HERE, "pages", os.path.basename(unit[0].path)[:-3] + ".swift")
                if "no-prelude" not in options and os.path.exists(page):
                    command.append(page)
            result = run(command)
            return unit, result

        units = [u for f in files for u in units_of([b for b in blocks if b.path == f])]
        workers = os.cpu_count() or 2
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(check, enumerate(units)))

    failed = 0
    for unit, result in results:
        if result.returncode:
            failed += 1
            print(result.stdout + result.stderr, end="")
            lines = {int(n) for n in re.findall(
                rf"^{re.escape(unit[0].path)}:(\d+):\d+: error", result.stdout + result.stderr, re.M)}
            failing = [b for b in unit if any(b.line <= n < b.line + b.code.count("\n") + 1 for n in lines)]
            where = ", ".join(f"{b.path}:{b.line - 1}" for b in failing or unit)
            print(f"error: the Swift block(s) at {where} do not compile\n")
    skipped = [b for b in blocks if "skip" in b.options]
    for block in skipped:
        print(f"skipped {block.path}:{block.line - 1}: {block.reason}")
    checked = len(blocks) - len(skipped)
    print(
        f"snippets: {checked} blocks of {len(files)} files type-checked in {len(units)} programs, "
        f"{len(skipped)} skipped, {failed} programs failed ({time.monotonic() - started:.1f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
