#!/usr/bin/env python3
"""The house's own rules, checked over the tracked files (run by ctest as
house.*; run by hand from anywhere: tools/check-house.py [RULE...]).

  shared       no file refers to the shared folder beside a checkout, or
               to the notes kept there: a clone does not have them, so
               whatever a reader needs is written into docs/ (docs/sources/
               for published systems).
  issues       no file cites the project's issue tracker (the word and a
               number): a reader of the repository does not have it.
               Upstream issues are cited by their address.
  public-headers
               a family's public headers (PUBLIC_HEADERS of its
               adj_add_family; default <family>.h) declare no
               implementation of its table's signature ("XFn Name;") and no
               tuning hook ("...Tuned("): those belong in its variants.h,
               which the build lets only the family and its tests include.
  name-dispatch
               no code in algorithms/, checks/, registry/, tools/, python/
               or fuzz/ decides what a row does by comparing its name
               (variant == "cuda"): what a row is lives in the row (its
               Traits). Benchmarks may pick rows for a sweep by name.
  spelling     identifiers spell "neighbor" (prose in comments and
               strings may say "neighbour"); C++ and Python code.
  long-functions
               no function of algorithms/, checks/, reference/, registry/ or
               tools/ runs over 100 lines unless a comment just above it
               starting "Long:" says why (a table, one parallel region
               whose barriers span its passes, ...).
  family-lists no hand-written list of families outside the registry the
               build generates (registry/families.h; CMake: the global
               property ADJ_FAMILIES): four or more family names within
               four code lines is taken for one. A file whose lines name
               families for another reason says so with a line
               "house-check: <why>", and is skipped.

Exit 0 when every rule holds, 1 with the offending lines otherwise.
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULES = ("shared", "issues", "family-lists", "public-headers",
         "name-dispatch", "spelling", "long-functions")
CODE = re.compile(r"(\.(cc|h|cu|cuh|py|cmake|sh|toml|json|in)$"
                  r"|(^|/)CMakeLists\.txt$|(^|/)Makefile$|(^|/)run$)")
# Lines that name families without listing them: includes, comments,
# dependency declarations.
NOT_A_LIST = re.compile(r"\s*(#\s*include|//|#|\*|DEPENDS\b)")
WINDOW = 4
NAMES_IN_A_LIST = 4


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    for name in listed.split("\0"):
        path = ROOT / name
        if name and path.is_file() and not name.startswith("reports/data/"):
            yield name, path


def text_of(path):
    try:
        return path.read_text()
    except (UnicodeDecodeError, OSError):
        return None


def families():
    return sorted(folder.parent.name
                  for folder in (ROOT / "algorithms").glob("*/CMakeLists.txt")
                  if "adj_add_family(" in folder.read_text())


# Written in pieces, so that this file does not cite what it forbids.
SHARED = ".." + "/shared"
# The notes kept beside the repository, however cited ("notes sph.md",
# "notes section 5.4", "notes/fracture.md").
NOTES = re.compile(r"\.\./shared|\bnotes?(/| [a-z-]+\.md| section| [0-9])")


def check_shared(name, text):
    if name == "tools/check-house.py":
        return
    for number, line in enumerate(text.splitlines(), 1):
        if NOTES.search(line):
            yield (f"{name}:{number}: refers to {SHARED}, which a clone "
                   f"lacks: {line.strip()}")


ISSUE = re.compile(r"\bissues?\s+#?[0-9]", re.I)


def check_issues(name, text):
    for number, line in enumerate(text.splitlines(), 1):
        if ISSUE.search(line):
            yield f"{name}:{number}: cites an issue number: {line.strip()}"


def check_family_lists(name, text, names):
    if not CODE.search(name) or name.startswith("registry/"):
        return
    if "house-check:" in text:
        return
    pattern = re.compile(r"\b(" + "|".join(names) + r")\b")
    lines = [(number, line)
             for number, line in enumerate(text.splitlines(), 1)
             if not NOT_A_LIST.match(line)]
    for start in range(len(lines)):
        window = lines[start:start + WINDOW]
        found = set()
        for _, line in window:
            found.update(pattern.findall(line))
        if len(found) >= NAMES_IN_A_LIST:
            yield (f"{name}:{window[0][0]}: a hand-written list of families "
                   f"({', '.join(sorted(found))}): read the registry instead")
            return


IMPLEMENTATION = re.compile(r"^\s*(\w+Fn\s+\w+\s*;|.*\b\w+Tuned\s*\()")


def public_headers(family):
    """The PUBLIC_HEADERS of a family's adj_add_family call."""
    text = (ROOT / "algorithms" / family / "CMakeLists.txt").read_text()
    match = re.search(r"PUBLIC_HEADERS\s+([^)]*?)(?:\n\s*[A-Z_]{4,}\b|\))",
                      text)
    return match.group(1).split() if match else [f"{family}.h"]


def check_public_header(name, text):
    for number, line in enumerate(text.splitlines(), 1):
        if IMPLEMENTATION.match(line) and not line.lstrip().startswith("//"):
            yield (f"{name}:{number}: a public header declares an "
                   f"implementation or tuning hook (move it to variants.h): "
                   f"{line.strip()}")


NAME_COMPARED = re.compile(
    r"\b(variant|row|variant_name)(\.name|->name)?\s*[!=]=\s*\""
    r"|(\.|->)name\s*[!=]=\s*(\"|std::string)"
    r"|\"\s*[!=]=\s*[\w.>()-]*\bname\b"
    r"|\brun\s*[!=]=\s*&")
DISPATCH_LAYERS = ("algorithms/", "checks/", "registry/", "tools/", "python/",
                   "fuzz/")


def check_name_dispatch(name, text):
    if not name.startswith(DISPATCH_LAYERS) or not re.search(
            r"\.(cc|h|cu|cuh)$", name):
        return
    for number, line in enumerate(text.splitlines(), 1):
        if NAME_COMPARED.search(line) and not line.lstrip().startswith("//"):
            yield (f"{name}:{number}: decides by a row's name (give the row "
                   f"a Traits field instead): {line.strip()}")


BRITISH = re.compile(r"\b\w*[Nn]eighbour\w*\b")
STRING = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")


def code_of(line, python):
    """The line without its strings and its comment."""
    line = STRING.sub('""', line)
    return line.split("#" if python else "//")[0]


def check_spelling(name, text):
    python = name.endswith(".py")
    if not (python or re.search(r"\.(cc|h|cu|cuh)$", name)):
        return
    in_text = False  # inside a docstring or a raw string literal
    for number, line in enumerate(text.splitlines(), 1):
        if python:
            toggles = line.count('"""') % 2 == 1
            if in_text or toggles:
                in_text = in_text != toggles
                continue
        else:
            if in_text:
                in_text = ')"' not in line
                continue
            if 'R"(' in line and ')"' not in line.split('R"(', 1)[1]:
                in_text = True
                continue
        if line.lstrip().startswith(("//", "*", "#")):
            continue
        found = BRITISH.findall(code_of(line, python))
        if found:
            yield (f"{name}:{number}: identifier spelt with 'neighbour' "
                   f"(write 'neighbor'): {', '.join(found)}")


LONG_LAYERS = ("algorithms/", "checks/", "reference/", "registry/", "tools/")
MOST_LINES = 100
BLOCK_HEAD = re.compile(
    r"\)\s*((const|noexcept(\([^)]*\))?|override|final|mutable|&&?)\s*)*"
    r"(->\s*[^{;]+)?\s*$")


def function_blocks(text):
    """(first line, last line, name) of each brace block that follows a
    parenthesis closing a signature: functions and lambdas, not control
    statements or OpenMP regions. Comments and strings are blanked first."""
    code = re.sub(r"//[^\n]*", "", text)
    code = re.sub(r'"(\\.|[^"\\\n])*"', '""', code)
    stack, line = [], 1
    for index, char in enumerate(code):
        if char == "\n":
            line += 1
        elif char == "{":
            stack.append((line, code[max(0, index - 400):index]))
        elif char == "}" and stack:
            first, before = stack.pop()
            head = before.split(";")[-1].split("}")[-1].split("{")[-1]
            last_line = head.rstrip().split("\n")[-1]
            if (not BLOCK_HEAD.search(head.rstrip())
                    or re.search(r"^\s*#\s*pragma|\b(if|for|while|switch|"
                                 r"catch)\s*\(", last_line)):
                continue
            names = re.findall(r"([A-Za-z_][\w:]*)\s*\(", head)
            yield first, line, names[0] if names else "?"


def long_reason_above(lines, first):
    """Whether the comment block right above the function whose brace is on
    line `first` (1-based) holds a "// Long:" line: up from the brace over
    the signature's lines, then over the comment lines above them."""
    index = first - 1
    while index > 0 and lines[index - 1].strip() and not re.match(
            r"\s*(//|#)", lines[index - 1]) and not lines[index - 1].rstrip(
            ).endswith((";", "}")):
        index -= 1
    while index > 0 and re.match(r"\s*//", lines[index - 1]):
        index -= 1
        if re.match(r"\s*// Long:", lines[index]):
            return True
    return False


def check_long_functions(name, text):
    if not name.startswith(LONG_LAYERS) or not re.search(
            r"\.(cc|h|cu|cuh)$", name):
        return
    lines = text.splitlines()
    for first, last, function in function_blocks(text):
        if last - first + 1 <= MOST_LINES:
            continue
        if long_reason_above(lines, first):
            continue
        yield (f"{name}:{first}: {function} runs {last - first + 1} lines "
               f"(over {MOST_LINES}) with no \"// Long:\" reason above it")


def planted_problems_are_found(names):
    """Each rule flags a planted offence and passes its clean twin, so that
    a rule broken into silence fails here rather than passing everything."""
    listed = "x = [\n" + ",\n".join(f'  "{n}"' for n in names[:4]) + "]\n"
    return (any(check_shared("a.md", f"see {SHARED}/notes")) and
            any(check_shared("a.cc", "// (notes section 5.4)")) and
            not any(check_shared("a.md", "see docs/sources")) and
            any(check_issues("a.cc", "// as iss" + "ue 36 asked")) and
            not any(check_issues("a.cc", "// as the tiss" + "ue 36 asked")) and
            any(check_family_lists("a.py", listed, names)) and
            not any(check_family_lists("a.md", listed, names)) and
            not any(check_family_lists("a.py", "# house-check: why\n" +
                                       listed, names)) and
            any(check_public_header("a.h", "ScanFn SerialScan;")) and
            any(check_public_header("a.h", "void OpenMpBuildTuned(int);")) and
            not any(check_public_header("a.h", "using ScanFn = void();")) and
            any(check_name_dispatch("checks/a.cc", 'if (variant == "cuda") {')) and
            any(check_name_dispatch("checks/a.cc", 'if (v.name == "cuda") {')) and
            any(check_name_dispatch("checks/a.cc", 'if ("cuda" == v.name) {')) and
            any(check_name_dispatch("checks/a.cc",
                                    "if (variant.run == &CudaShared) {")) and
            not any(check_name_dispatch("checks/a.cc",
                                        "if (variant.traits.device) {")) and
            any(check_spelling("a.cc", "ForEachNeighbour(x);")) and
            not any(check_spelling("a.cc", "f(x);  // each neighbour")) and
            not any(check_spelling("a.cc", 'Say("neighbours");')) and
            any(check_long_functions("tools/a.cc", "int F(int x) {\n" +
                                     "  x++;\n" * 120 + "}\n")) and
            not any(check_long_functions("tools/a.cc",
                                         "// Long: a table.\nint F(int x) {\n"
                                         + "  x++;\n" * 120 + "}\n")) and
            not any(check_long_functions("tools/a.cc", "int F(int x) {\n" +
                                         "  x++;\n" * 90 + "}\n")) and
            any(check_long_functions("tools/a.cc",
                                     "// Long: a table.\nint G() { return 1; }"
                                     "\nint F(int x) {\n" + "  x++;\n" * 120
                                     + "}\n")) and
            any(check_long_functions("tools/a.cc", "int F() const override {\n"
                                     + "  x++;\n" * 120 + "}\n")))


def main(argv):
    rules = set(argv) or set(RULES)
    if not rules <= set(RULES):
        print(f"check-house: no rule {', '.join(sorted(rules - set(RULES)))} "
              f"(rules: {', '.join(RULES)})")
        return 2
    names = families()
    if len(names) < NAMES_IN_A_LIST or not planted_problems_are_found(names):
        print("check-house: a rule no longer finds its planted offence")
        return 1
    problems = []
    for name, path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        if "shared" in rules:
            problems += check_shared(name, text)
        if "issues" in rules:
            problems += check_issues(name, text)
        if "family-lists" in rules:
            problems += check_family_lists(name, text, names)
        if "name-dispatch" in rules:
            problems += check_name_dispatch(name, text)
        if "spelling" in rules:
            problems += check_spelling(name, text)
        if "long-functions" in rules:
            problems += check_long_functions(name, text)
    if "public-headers" in rules:
        for family in names:
            for header in public_headers(family):
                path = ROOT / "algorithms" / family / header
                problems += check_public_header(
                    str(path.relative_to(ROOT)), path.read_text())
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
