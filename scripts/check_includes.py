#!/usr/bin/env python3
"""Include what you use, for the standard library (issue 11).

Runs include-what-you-use (Debian package `iwyu`) over every .cpp in core/, profiling/ and kernels/
with the flags of the default build's compile database, and over every .h there through the files
that include it (--check_also). It fails, with one line per include, when a file names a standard
library name (std::uint8_t, std::string, std::move, size_t, ...) whose C++ or C standard header it
does not include itself: GCC 12 brings <cstdint> in through <vector>, GCC 13 does not.

Everything else iwyu says is advice and never fails: includes it would remove, project, Qt, CUDA
and JSON headers, and standard headers wanted only for names the file never writes (iterator
operators, allocator_traits, char_traits: they come with the container the file uses).

    scripts/check_includes.py [--build-dir build] [-j N] [--verbose] [FILE...]

Exit status: 0 clean, 1 missing standard includes, 2 cannot run (no iwyu, no compile database,
a header clang cannot find).
Run it after `cmake --build --preset default` (the ctest test lint.includes does); -j defaults to the number of cores.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import defaultdict

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SCOPE = ("core", "profiling", "kernels")
MAPPING_FILE = os.path.join(ROOT, "scripts", "iwyu_mappings.imp")

# C++20 standard library headers ([headers], tables 24 and 25), and the C headers behind <cxxx>.
CXX_HEADERS = set("""
    algorithm any array atomic barrier bit bitset charconv chrono codecvt compare complex concepts
    condition_variable coroutine deque exception execution filesystem format forward_list fstream
    functional future initializer_list iomanip ios iosfwd iostream istream iterator latch limits
    list locale map memory memory_resource mutex new numbers numeric optional ostream queue random
    ranges ratio regex scoped_allocator semaphore set shared_mutex source_location span sstream
    stack stdexcept stop_token streambuf string string_view strstream syncstream system_error
    thread tuple type_traits typeindex typeinfo unordered_map unordered_set utility valarray
    variant vector version
""".split())
C_HEADERS = set("""
    assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign
    stdarg stdbool stddef stdint stdio stdlib string tgmath time uchar wchar wctype
""".split())
STANDARD_HEADERS = CXX_HEADERS | {"c" + h for h in C_HEADERS} | {h + ".h" for h in C_HEADERS}


# Names the standard declares in more than one header: any of them will do. iwyu 0.18 asks for
# <stdlib.h> for std::abs(double) although <cmath> declares it ([c.math.abs]), and for size_t
# whichever header it saw first. The first header of each set is the one to suggest.
_RANGE_ACCESS = ("iterator array deque forward_list list map regex set span string string_view "
                 "unordered_map unordered_set vector").split()  # [iterator.range]
PROVIDERS = {
    "abs": ["cmath", "cstdlib"],
    "size_t": ["cstddef", "cstdio", "cstdlib", "cstring", "ctime", "cwchar", "cuchar"],
    "NULL": ["cstddef", "clocale", "cstdio", "cstdlib", "cstring", "ctime", "cwchar"],
    **{name: _RANGE_ACCESS for name in "begin end cbegin cend rbegin rend crbegin crend size "
                                         "ssize empty data".split()},
}


def cxx_spelling(header):
    """<stdint.h> -> <cstdint>: the form this project writes."""
    if header.endswith(".h") and header[:-2] in C_HEADERS:
        return "c" + header[:-2]
    return header


def is_c_header(header):
    cxx = cxx_spelling(header)
    return cxx.startswith("c") and cxx[1:] in C_HEADERS


# --- reading iwyu's output -----------------------------------------------------------------------

ADD_RE = re.compile(r"^(.+) should add these lines:$")
REMOVE_RE = re.compile(r"^(.+) should remove these lines:$")
CORRECT_RE = re.compile(r"^\((.+) has correct #includes/fwd-decls\)$")
INCLUDE_RE = re.compile(r'^#include ([<"])([^>"]+)[>"]\s*(?://\s*for (.*))?$')
ERROR_RE = re.compile(r"^(.+?):(\d+):(\d+): (fatal )?error: (.*)$")


def parse_iwyu(output, cwd):
    """-> (analysed files, {file: [(header, angled, [symbols])]}, {file: removals}, [errors])"""
    def norm(path):
        return os.path.realpath(os.path.join(cwd, path))

    analysed, adds, removes, errors = set(), defaultdict(list), defaultdict(int), []
    section, current = None, None
    for line in output.splitlines():
        line = line.rstrip()
        if m := CORRECT_RE.match(line):
            analysed.add(norm(m.group(1)))
            section = None
        elif m := ADD_RE.match(line):
            section, current = "add", norm(m.group(1))
            analysed.add(current)
        elif m := REMOVE_RE.match(line):
            section, current = "remove", norm(m.group(1))
        elif line.startswith("The full include-list for ") or line == "---" or not line:
            section = None
        elif m := ERROR_RE.match(line):
            errors.append((norm(m.group(1)), int(m.group(2)), m.group(5), bool(m.group(4))))
        elif section == "add" and (m := INCLUDE_RE.match(line)):
            symbols = [s.strip() for s in (m.group(3) or "").split(",") if s.strip()]
            adds[current].append((m.group(2), m.group(1) == "<", symbols))
        elif section == "remove" and line.startswith("- "):
            removes[current] += 1
    return analysed, adds, removes, errors


# --- does the file write the name? ---------------------------------------------------------------

RAW_STRING_RE = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def strip_comments_and_strings(text):
    """Blanks comments and string/char literals (raw strings too), keeping line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (m := RAW_STRING_RE.match(text, i)) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000'000
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


_code_cache = {}


def code_lines(path):
    if path not in _code_cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        direct = set(re.findall(r'^\s*#\s*include\s*<([^>]+)>', text, re.M))
        _code_cache[path] = (strip_comments_and_strings(text).split("\n"), direct)
    return _code_cache[path]


def written_name(symbol):
    """The name a program writes for an iwyu symbol, or None for what it never writes
    (operator==, allocator_traits<>::value_type, _Rb_tree_iterator)."""
    if symbol.startswith(("operator", "_")) or "<" in symbol or "(" in symbol:
        return None
    name = symbol.split("::")[0]
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else None


def first_use(path, names, header):
    """(line, spelled name) of the first line that writes one of names, or None.

    A C++ name counts as written when it is qualified with std:: (std::move, std::chrono::
    steady_clock); a C name (size_t, uint8_t, snprintf, INT_MAX) also when written bare."""
    lines, _ = code_lines(path)
    c_names = is_c_header(header)
    patterns = []
    for name in names:
        qualified = r"\bstd::(?:\w+::)*" + re.escape(name) + r"\b"
        bare = r"(?<![\w.:>])(?:::)?" + re.escape(name) + r"\b"
        patterns.append((name, re.compile(qualified + ("|" + bare if c_names else ""))))
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("#include"):
            continue
        for name, pattern in patterns:
            if m := pattern.search(line):
                return number, m.group(0).lstrip(":")
    return None


# --- running iwyu --------------------------------------------------------------------------------

def in_scope(path):
    rel = os.path.relpath(path, ROOT)
    return rel.split(os.sep)[0] in SCOPE and not rel.startswith("..")


def iwyu_args():
    args = ["-Xiwyu", "--mapping_file=" + MAPPING_FILE, "-Xiwyu", "--no_fwd_decls",
            "-Xiwyu", "--max_line_length=4000"]
    for top in SCOPE:
        # iwyu's globs are fnmatch without FNM_PATHNAME: '*' crosses '/', so this is every header.
        args += ["-Xiwyu", "--check_also=" + os.path.join(ROOT, top, "*.h")]
    return args + ["-w"]  # clang's warnings are not ours to read here; GCC's build shows them


def iwyu_command(entry):
    argv = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    if os.path.basename(argv[0]) in ("ccache", "sccache"):
        argv = argv[1:]
    return ["include-what-you-use"] + iwyu_args() + argv[1:]


def run_one(command, cwd):
    proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    return proc.stdout


def direct_command(path, donor):
    """iwyu on a file no database entry compiles (a header no .cpp includes): the flags of a
    database entry in the same folder or the nearest one above, compiling `path` alone."""
    argv = donor["arguments"] if "arguments" in donor else shlex.split(donor["command"])
    flags, skip = [], False
    for arg in argv[1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = True
        elif arg == os.path.basename(donor["file"]) or os.path.realpath(
                os.path.join(donor["directory"], arg)) == donor["file"]:
            continue
        elif arg not in ("-MD", "-MMD"):
            flags.append(arg)
    return ["include-what-you-use"] + iwyu_args() + flags + ["-fsyntax-only", "-x", "c++", path]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                        help="build folder with compile_commands.json (default: build)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--verbose", action="store_true", help="also list iwyu's advice")
    parser.add_argument("files", nargs="*", help="only these .cpp/.h files (default: all in scope)")
    opts = parser.parse_args()

    if not shutil.which("include-what-you-use"):
        print("check_includes: include-what-you-use not found: run scripts/setup.sh "
              "(Debian package iwyu)", file=sys.stderr)
        return 2
    database = os.path.join(opts.build_dir, "compile_commands.json")
    try:
        with open(database) as f:
            entries = json.load(f)
    except (OSError, ValueError) as error:
        print(f"check_includes: cannot read {database} ({error}): configure first with "
              "`cmake --preset default`", file=sys.stderr)
        return 2
    for entry in entries:
        entry["file"] = os.path.realpath(os.path.join(entry["directory"], entry["file"]))

    wanted = {os.path.realpath(f) for f in opts.files}
    on_disk = sorted(os.path.join(dirpath, name)
                     for top in SCOPE for dirpath, _, names in os.walk(os.path.join(ROOT, top))
                     for name in names if name.endswith((".cpp", ".h")))
    on_disk = [p for p in on_disk if not wanted or p in wanted]
    units = {}
    for entry in entries:
        if in_scope(entry["file"]) and entry["file"].endswith(".cpp") and entry["file"] not in units:
            units[entry["file"]] = entry
    if wanted:
        # A header is checked through every unit in its folder tree; that is cheap enough.
        folders = {os.path.dirname(p) for p in wanted}
        units = {f: e for f, e in units.items()
                 if f in wanted or any(os.path.dirname(f).startswith(d) for d in folders)}

    started = time.monotonic()
    outputs = {}

    def run_all(jobs):
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futures = {pool.submit(run_one, cmd, cwd): path for path, (cmd, cwd) in jobs.items()}
            for future in concurrent.futures.as_completed(futures):
                outputs[futures[future]] = (future.result(), jobs[futures[future]][1])

    run_all({path: (iwyu_command(e), e["directory"]) for path, e in units.items()})
    analysed = set()
    for text, cwd in outputs.values():
        analysed |= parse_iwyu(text, cwd)[0]

    # Files that no unit reached (a header nothing in the database includes, a .cpp not built by
    # the default preset) are checked alone, with the flags of their nearest neighbour.
    leftovers = {}
    for path in on_disk:
        if path in analysed or path in units:
            continue  # a unit clang cannot compile is reported below, not run twice
        folder, donor = os.path.dirname(path), None
        while donor is None and in_scope(folder):
            donor = next((e for f, e in units.items() if os.path.dirname(f) == folder), None)
            folder = os.path.dirname(folder)
        donor = donor or next((e for f, e in units.items() if f.startswith(folder)), None)
        if donor:
            leftovers[path] = (direct_command(path, donor), donor["directory"])
    run_all(leftovers)
    if opts.verbose and leftovers:
        print("checked alone (no translation unit reaches them): "
              + " ".join(os.path.relpath(p, ROOT) for p in sorted(leftovers)))

    adds, removes, errors = defaultdict(dict), defaultdict(int), {}
    analysed = set()
    for unit, (text, cwd) in outputs.items():
        seen, unit_adds, unit_removes, unit_errors = parse_iwyu(text, cwd)
        analysed |= seen
        for path, count in unit_removes.items():  # a header is seen by many units: count once
            if in_scope(path) and (not wanted or path in wanted):
                removes[path] = max(removes[path], count)
        if unit_errors:
            errors[unit] = unit_errors[0]
        for path, suggestions in unit_adds.items():
            for header, angled, symbols in suggestions:
                known = adds[path].setdefault((header, angled), set())
                known.update(symbols)

    failures, advice, unmapped, reported = [], [], set(), set()
    for path in sorted(adds):
        if not in_scope(path) or (wanted and path not in wanted):
            continue
        rel = os.path.relpath(path, ROOT)
        # What the file includes itself, or its associated header (x.h for x.cpp) does: iwyu
        # lets x.cpp rely on x.h's includes too.
        included = set(code_lines(path)[1])
        if path.endswith(".cpp"):
            included |= code_lines(path[:-4] + ".h")[1]
        included = {cxx_spelling(h) for h in included}
        for (header, angled), symbols in sorted(adds[path].items()):
            listed = ", ".join(sorted(symbols))
            if angled and header.startswith(("bits/", "ext/")):
                unmapped.add(header)
            if not angled or header not in STANDARD_HEADERS:
                spelled = f"<{header}>" if angled else f'"{header}"'
                advice.append(f"{rel}: add {spelled}  // for {listed}")
                continue
            cxx = cxx_spelling(header)
            if cxx in included:
                continue  # <stdint.h> asked for, <cstdint> there (or the other way round)
            names = [n for n in (written_name(s) for s in symbols) if n]
            names = [n for n in names if not included & set(PROVIDERS.get(n, ()))]
            if names and all(n in PROVIDERS for n in names):
                cxx = PROVIDERS[names[0]][0]
            use = first_use(path, names, header) if names else None
            if use and (rel, cxx) not in reported:
                reported.add((rel, cxx))
                failures.append((rel, use[0], f"{rel}:{use[0]}: missing #include <{cxx}> "
                                              f"(it uses {use[1]})"))
            elif not use:
                advice.append(f"{rel}: add <{header}>  // for {listed} (never written: implicit)")

    elapsed = time.monotonic() - started
    # clang 14 (iwyu's) rejects some C++20 that GCC builds (a lambda capturing a structured
    # binding): such a unit is named and skipped. A missing file is a broken setup, not skipped.
    broken = False
    for unit, (path, line, message, fatal) in sorted(errors.items()):
        broken |= fatal
        print(f"check_includes: {'error' if fatal else 'warning'}: {os.path.relpath(unit, ROOT)} "
              f"not checked: clang (iwyu) cannot compile it: {os.path.relpath(path, ROOT)}:{line}: "
              f"{message}", file=sys.stderr)
    missed = [os.path.relpath(p, ROOT) for p in on_disk if p not in analysed and p not in errors]
    if missed:
        print(f"check_includes: warning: not checked (nothing compiles them): {' '.join(missed)}",
              file=sys.stderr)
    if opts.verbose:
        for line in advice:
            print("advice: " + line)
    if unmapped:
        print("check_includes: unmapped internal headers (add them to scripts/iwyu_mappings.imp): "
              + " ".join(f"<{h}>" for h in sorted(unmapped)), file=sys.stderr)
    for _, _, line in sorted(failures):
        print(line)
    print(f"check_includes: {len(units)} translation units + {len(leftovers)} file(s) alone, "
          f"{len([p for p in on_disk if p in analysed])} files checked in {elapsed:.0f} s; "
          f"{len(failures)} missing standard include(s); advice, not failing: {sum(removes.values())} include(s) "
          f"iwyu would remove, {len(advice)} other addition(s)"
          + ("" if opts.verbose else " (--verbose lists them)"), file=sys.stderr)
    return 1 if failures else 2 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
