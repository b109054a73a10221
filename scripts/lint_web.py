#!/usr/bin/env python3
"""The web client's lint (`make lint`), beside `tsc`'s strict type check (web/jsconfig.json).

Debian 12 has no JavaScript formatter and only an ESLint (6.4) too old to read the client's
ES2022, so the house rules are checked here: every module is `// @ts-check`; no `var`, loose
`==`/`!=`, `console.log` or `debugger`; and in JavaScript, CSS and HTML no tab, no trailing
space, one final newline, and no stylesheet or script linked twice. Prints each finding as
`file:line: message`; exits 1 if there is one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "web"
# A loose comparison outside strings: `a == b`, `a != b` (not `===`, `!==`, `<=`, `>=`, `=>`).
LOOSE = re.compile(r"(?<![=!<>])(==|!=)(?!=)")
STRINGS = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`")
LINKED = re.compile(r"""<(?:link[^>]*href|script[^>]*src)=["']([^"']+)["']""")


def code_of(line):
    """The line without its strings and its `//` comment (a JSDoc line has no code)."""
    if line.lstrip().startswith(("*", "/*")):
        return ""
    code = STRINGS.sub("''", line)
    return code.split("//", 1)[0]


def check(path):
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT.parent)
    found = []
    if not text.endswith("\n") or text.endswith("\n\n"):
        found.append((len(text.splitlines()), "must end with exactly one newline"))
    for number, line in enumerate(text.splitlines(), 1):
        if "\t" in line:
            found.append((number, "a tab (indent with spaces)"))
        if line != line.rstrip():
            found.append((number, "trailing whitespace"))
        if path.suffix != ".js":
            continue
        code = code_of(line)
        if re.search(r"\bvar\s", code):
            found.append((number, "`var` (use const or let)"))
        if LOOSE.search(code):
            found.append((number, "a loose comparison (use === or !==)"))
        if re.search(r"\bconsole\.log\b|\bdebugger\b", code):
            found.append((number, "console.log or debugger left in"))
    if path.suffix == ".js" and not text.startswith("// @ts-check\n"):
        found.append((1, "must start with `// @ts-check`"))
    if path.suffix == ".html":
        linked = LINKED.findall(text)
        for twice in sorted({url for url in linked if linked.count(url) > 1}):
            found.append((1, f"{twice} linked twice"))
    return [f"{name}:{line}: {message}" for line, message in found]


def main():
    files = sorted(
        path for pattern in ("**/*.js", "**/*.css", "**/*.html") for path in ROOT.glob(pattern)
    )
    findings = [finding for path in files for finding in check(path)]
    for finding in findings:
        print(finding)
    print(f"lint_web: {len(files)} files, {len(findings)} findings", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
