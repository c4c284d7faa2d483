#!/usr/bin/env python3
"""Checks the links of the project's Markdown, and the README's benchmark figures.

Every relative link in README.md, CONTRIBUTING.md, Samples/*/README.md, Benchmarks/README.md
and the DocC articles must point to a file or folder that exists, and each `#anchor` to a
heading of the target page as GitHub writes anchors: lowercase, spaces to `-`, punctuation
dropped, `-1`, `-2`, ... after repeats. Links with a scheme (https:, mailto:) and DocC's
`<doc:…>` links are left alone: `.ci/docs` checks the latter.

The "## Benchmarks" section of README.md quotes no figure of its own: every number in it, and
every "quoted" sentence, must appear in Benchmarks/README.md, whose figures come from one run
at a stated commit.

Usage: python3 .ci/links.py    Exits non-zero, naming the file and line of each broken link.
"""

import glob
import os
import re
import sys
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def prose_lines(path):
    """The lines of a Markdown file outside fenced code, with inline code blanked out."""
    fence = None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1).startswith(fence[0] * len(fence)):
                fence = None
            continue
        if fence is None:
            yield number, re.sub(r"(`+).*?\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in "-_" or category[0] in "LN" or category == "Mn":
            kept.append(char)
        elif char == " ":
            kept.append("-")
    return "".join(kept)


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, result = {}, set()
        fence = None
        for line in open(path, encoding="utf-8"):
            match = FENCE.match(line)
            if match:
                fence = None if fence else match.group(1)
                continue
            heading = None if fence else HEADING.match(line)
            if heading:
                base = slug(heading.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                result.add(base if count == 0 else f"{base}-{count}")
        _anchors[path] = result
    return _anchors[path]


def check_links(path):
    problems = []
    for number, line in prose_lines(path):
        targets = [m.group(1) for m in LINK.finditer(line)]
        reference = REFERENCE.match(line)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("doc:"):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (
                os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            )
            if not os.path.exists(resolved):
                problems.append(f"{path}:{number}: {target}: no such file {resolved}")
            elif anchor:
                if not resolved.endswith(".md") or os.path.isdir(resolved):
                    problems.append(f"{path}:{number}: {target}: an anchor into a page that is not Markdown")
                elif anchor not in anchors(resolved):
                    close = sorted(a for a in anchors(resolved) if a == anchor.lower())
                    hint = f" (GitHub writes it #{close[0]})" if close else ""
                    problems.append(f"{path}:{number}: {target}: no heading #{anchor} in {resolved}{hint}")
    return problems


def check_benchmark_figures():
    """Every number and "quoted" sentence of the README's Benchmarks section is in Benchmarks/README.md."""
    readme = open("README.md", encoding="utf-8").read()
    start = readme.find("\n## Benchmarks\n")
    if start < 0:
        return []
    end = readme.find("\n## ", start + 1)
    section = readme[start : end if end > 0 else len(readme)]
    first_line = readme[:start].count("\n") + 2
    source = " ".join(open("Benchmarks/README.md", encoding="utf-8").read().split())
    numbers = set(re.findall(r"\d[\d,.]*\d|\d", " ".join(section.split())))
    problems = []
    for number in sorted(numbers):
        if not re.search(r"(?<!\d)(?<!\d[,.])" + re.escape(number) + r"(?!\d|[,.]\d)", source):
            problems.append(f"README.md:{first_line}: Benchmarks: {number} is not in Benchmarks/README.md")
    for quote in re.findall(r"\"([^\"]+)\"", " ".join(section.split())):
        if quote.rstrip(".") not in source:
            problems.append(f"README.md:{first_line}: Benchmarks: the quote \"{quote}\" is not in Benchmarks/README.md")
    return problems


def main():
    os.chdir(ROOT)
    files = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"]
    files += sorted(glob.glob("Samples/*/README.md"))
    files += sorted(glob.glob("Sources/Shank/Shank.docc/**/*.md", recursive=True))
    problems = [p for f in files for p in check_links(f)] + check_benchmark_figures()
    for problem in problems:
        print(f"error: {problem}")
    links = sum(len(LINK.findall(l)) for f in files for _, l in prose_lines(f))
    print(f"links: {links} links in {len(files)} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
