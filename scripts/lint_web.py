#!/usr/bin/env python3
"""The web client's lint (`make lint`), beside `tsc`'s strict type check (web/jsconfig.json).

Debian 12 has no JavaScript formatter and only an ESLint (6.4) too old to read the client's
ES2022, so the house rules are checked here: every module is `// @ts-check`; no `var`, loose
`==`/`!=`, `console.log` or `debugger`; and in JavaScript, CSS and HTML no tab, no trailing
space, one final newline, and no stylesheet or script linked twice; and the page preloads
exactly the modules its script imports, so that a first visit asks for all of them at once
instead of one level of imports after another. Prints each finding as `file:line: message`;
exits 1 if there is one.
"""

import pathlib
import posixpath
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "web"
# A loose comparison outside strings: `a == b`, `a != b` (not `===`, `!==`, `<=`, `>=`, `=>`).
LOOSE = re.compile(r"(?<![=!<>])(==|!=)(?!=)")
STRINGS = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`")
TAG = re.compile(r"<(script|link)\b[^>]*>", re.IGNORECASE)
ATTRIBUTE = re.compile(r"""\b([a-z]+)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
# A static import or re-export at the start of a line, over several lines if need be:
# `import { a, b } from './x.js';`, `export * from '../y.js';`, `import './z.js';`.
IMPORTED = re.compile(
    r"""^[ \t]*(?:(?:import|export)\s[^;'"]*?from\s*|import\s*)['"]([^'"]+)['"]""",
    re.MULTILINE,
)
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def code_of(line):
    """The line without its strings and its `//` comment (a JSDoc line has no code)."""
    if line.lstrip().startswith(("*", "/*")):
        return ""
    code = STRINGS.sub("''", line)
    return code.split("//", 1)[0]


def imported_by(module):
    """The specifiers `module` (a path under the root) imports statically, comments aside."""
    source = BLOCK_COMMENT.sub("", (ROOT / module).read_text(encoding="utf-8"))
    return IMPORTED.findall(source)


def imports(entry):
    """Every module `entry` (a path under the root) imports, directly or not, in the order a
    depth-first walk meets them, `entry` first; and what is wrong on the way (an import by a
    path from the root or of a module that is not there)."""
    found, problems = [], []

    def visit(module):
        if module in found:
            return
        found.append(module)
        for specifier in imported_by(module):
            if not specifier.startswith(("./", "../")):
                # NB: a module reached by two names runs twice, with two states.
                problems.append(f"/{module} imports {specifier!r}: import by ./ or ../")
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(module), specifier))
            if not (ROOT / target).is_file():
                problems.append(f"/{module} imports {specifier!r}, which is not there")
                continue
            visit(target)

    visit(entry)
    return found, problems


def tags(text, name):
    """Each `<script>` or `<link>` tag of the page as its attributes, names in lower case."""
    return [
        {key.lower(): value for key, value in ATTRIBUTE.findall(tag.group(0))}
        for tag in TAG.finditer(text)
        if tag.group(1).lower() == name
    ]


def preloads(text):
    """The page's findings about its modules: each module its script imports and it does not
    preload, each it preloads that nothing imports, and each import that is wrong."""
    entries = [
        tag["src"] for tag in tags(text, "script") if tag.get("type") == "module" and "src" in tag
    ]
    preloaded = [
        tag["href"].removeprefix("/")
        for tag in tags(text, "link")
        if tag.get("rel") == "modulepreload" and "href" in tag
    ]
    if preloaded and not entries:
        return [(1, "modules preloaded, but no module script to check them against")]
    found = []
    for entry in entries:
        if not entry.startswith("/"):
            found.append((1, f"{entry}: a module script by a path from the root, /js/…"))
            continue
        graph, problems = imports(entry.removeprefix("/"))
        found += [(1, problem) for problem in problems]
        found += [
            (1, f"/{m} is imported but not preloaded") for m in graph[1:] if m not in preloaded
        ]
        found += [(1, f"/{m} is preloaded but not imported") for m in preloaded if m not in graph]
    return found


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
        linked = [tag["href"] for tag in tags(text, "link") if "href" in tag] + [
            tag["src"] for tag in tags(text, "script") if "src" in tag
        ]
        for twice in sorted({url for url in linked if linked.count(url) > 1}):
            found.append((1, f"{twice} linked twice"))
        found += preloads(text)
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
