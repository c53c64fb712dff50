#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets from the project's own files, one folder per target:
  ptx_parse, ptx_sim   the demo kernels' PTX (build-fuzz/kernels/*.ptx), one file per kernel
  session_read         test fixtures and recorded sessions, cut to whole lines within 16 KB
  arg_spec             the demo manifests' argument specs and launch expressions, the specs in tests
  view_link            every warpscope: link in the lessons, quiz bank and link tests
  lesson               the lessons
  quiz_answer          every question id of the bank with typical answers
The committed corpora are these seeds minimised with -merge=1 (fuzz/README.md).
Usage: fuzz/make_seeds.py OUT_DIR [BUILD_DIR]"""
import glob
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
build = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "build-fuzz")


def write(target, name, text):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)


# PTX: the module's header and declarations, then one entry (its callees are inlined by nvcc -O3).
for path in sorted(glob.glob(os.path.join(build, "kernels", "*.ptx"))):
    text = open(path).read()
    starts = [m.start() for m in re.finditer(r"^(?:\.visible |\.weak )?\.(?:entry|func) ", text, re.M)]
    if not starts:
        continue
    header = text[:starts[0]]
    bodies = [text[s:e] for s, e in zip(starts, starts[1:] + [len(text)])]
    functions = [b for b in bodies if ".func " in b.split("\n", 1)[0]]
    for body in bodies:
        if ".entry " not in body.split("\n", 1)[0]:
            continue
        name = re.search(r"\.entry\s+(\w+)", body).group(1)
        for target in ("ptx_parse", "ptx_sim"):
            write(target, name + ".ptx", header + "".join(functions) + body)

# Sessions: whole lines up to 16 KB (a cut stream is a valid input too: the reader says it is cut).
for path in sorted(glob.glob(os.path.join(root, "tests/fixtures/sessions/*.wsprof")) +
                   glob.glob(os.path.join(root, "assets/recorded/*/*.wsprof"))):
    kept, size = [], 0
    for line in open(path, "rb"):
        if size + len(line) > 16384:
            break
        kept.append(line)
        size += len(line)
    write("session_read", os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path), b"".join(kept))

# Argument specs: each demo kernel's specs, overrides and launch expressions; each spec in the tests.
for path in sorted(glob.glob(os.path.join(root, "kernels/*/manifest.json"))):
    for kernel in json.load(open(path))["kernels"]:
        lines = list(kernel.get("args", []))
        lines += ["+" + spec for spec in kernel.get("gpu_args", [])]
        lines += ["=" + str(kernel.get(key)) for key in ("grid", "block", "smem") if kernel.get(key) is not None]
        write("arg_spec", kernel["id"], "\n".join(lines) + "\n")
for path in sorted(glob.glob(os.path.join(root, "tests/sim/kernel_args_test.cpp"))):
    for i, spec in enumerate(sorted(set(re.findall(r'"([A-Za-z_]\w*=[^"]*)"', open(path).read())))):
        if "file(" not in spec:
            write("arg_spec", "test-%03d" % i, spec + "\n")

# Links: in lessons, the quiz bank and the link tests.
links = set()
for path in (glob.glob(os.path.join(root, "assets/lessons/*.md")) + glob.glob(os.path.join(root, "core/study/*.cpp")) +
             [os.path.join(root, "tests/unit/view_link_test.cpp")]):
    links.update(re.findall(r'warpscope:[A-Za-z-]+(?:\?[^\s)"`>\]]*)?', open(path).read()))
for i, link in enumerate(sorted(links)):
    write("view_link", "link-%03d" % i, link)

# Lessons.
for path in sorted(glob.glob(os.path.join(root, "assets/lessons/*.md"))):
    write("lesson", os.path.basename(path), open(path, "rb").read())

# Quiz answers: every id with an answer of each form the parser takes.
warpscope = os.path.join(root, "build", "warpscope")
if os.path.exists(warpscope):
    listing = json.loads(subprocess.run([warpscope, "study", "quiz", "--list", "--json"], check=True,
                                        capture_output=True, text=True).stdout)
    answers = ["a", "2", "1,024", "75%", "32K", "0x7F", "3/10", "3e-8", "-0.5", " 12 MiB "]
    for i, question in enumerate(listing["questions"]):
        write("quiz_answer", question["id"], question["id"] + "#%d\n" % (i % 3 + 1) + answers[i % len(answers)])
else:
    print("make_seeds: %s not built: no quiz_answer seeds" % warpscope, file=sys.stderr)
