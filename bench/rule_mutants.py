"""A sampled mutation audit of the rules: does a rule's own test catch a broken implementation?

    .venv/bin/python bench/rule_mutants.py --sample 50 --seed 1
    .venv/bin/python bench/rule_mutants.py --ids CK-IMP-4,GOLD-022

Takes the rule IDs the engine cites where it refuses an action (a ``return [Violation("ID", ...`` or an
``.append(Violation("ID", ...`` line under ``service/engine``) and that some test names (a test function whose
source holds the ID), samples them, and for each makes one mutant: one such line, chosen by the seed,
disabled (``if False: return [...]``), so the check no longer refuses and the code goes on as if it had
passed. The mutant runs in a copy of the repository (the working tree is never touched), against the test
functions that name the ID; the mutant survives when they all pass. Prints each ID with the line mutated
and the outcome, then the count of survivors (target: none).
"""
from __future__ import annotations

import argparse
import ast
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = re.compile(r"""^(\s*)(return \[Violation\(|[A-Za-z_][A-Za-z_0-9.]*\.append\(\(?Violation\()["']([A-Z0-9]+(?:-[A-Z0-9]+)+)["']""")
ID_IN_TEXT = re.compile(r"\b((?:SEA|SC\d\d|TDE\d|GOLD|DIAM|WAG|BASE|CK|R)(?:-[A-Z0-9]+)+)\b")


def sites(root: Path) -> dict[str, list[tuple[str, int]]]:
    """Rule ID -> [(file relative to root, line number)] of the lines that refuse citing it."""
    out: dict[str, list[tuple[str, int]]] = {}
    for p in sorted((root / "service" / "engine").rglob("*.py")):
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines()):
            m = SITE.match(line)
            if m:
                out.setdefault(m.group(3), []).append((str(p.relative_to(root)), i))
    return out


def tests_naming(root: Path) -> dict[str, list[str]]:
    """Rule ID -> pytest node ids of the test functions whose source names it."""
    out: dict[str, list[str]] = {}
    for p in sorted((root / "tests").glob("test_*.py")):
        text = p.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                src = ast.get_source_segment(text, node) or ""
                for rid in set(ID_IN_TEXT.findall(src)) | set(ID_IN_TEXT.findall(node.name.replace("_", "-"))):
                    out.setdefault(rid, []).append(f"tests/{p.name}::{node.name}")
    return out


def mutate(copy: Path, rel: str, line_no: int) -> str:
    p = copy / rel
    lines = p.read_text(encoding="utf-8").splitlines(keepends=True)
    line = lines[line_no]
    indent = line[: len(line) - len(line.lstrip())]
    lines[line_no] = indent + "if False: " + line.lstrip()
    p.write_text("".join(lines), encoding="utf-8")
    return line.strip()[:100]


def run_tests(copy: Path, nodes: list[str], timeout: int) -> str:
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
           "-m", "not slow", *nodes]
    try:
        r = subprocess.run(cmd, cwd=copy, capture_output=True, text=True, timeout=timeout,
                           env={"PYTHONPATH": str(copy), "LOG_LEVEL": "critical", "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    last = (r.stdout.strip().splitlines() or ["?"])[-1]
    if r.returncode == 0:
        return "SURVIVED: " + last
    return "killed: " + last


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ids", help="comma-separated rule IDs instead of a sample")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per mutant's tests")
    ap.add_argument("--max-tests", type=int, default=12, help="test functions run per mutant (sampled)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    where = sites(ROOT)
    named = tests_naming(ROOT)
    covered = sorted(i for i in where if i in named)
    ids = args.ids.split(",") if args.ids else rng.sample(covered, min(args.sample, len(covered)))
    print(f"{len(where)} rule IDs refused at a line of the engine, {len(covered)} of them named by a test; "
          f"{len(ids)} mutated")
    tmp = Path(tempfile.mkdtemp(prefix="rule-mutants-"))
    copy = tmp / "repo"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.pyc"))
    survivors = []
    t0 = time.time()
    try:
        for rid in ids:
            rel, line_no = rng.choice(where[rid])
            original = (copy / rel).read_text(encoding="utf-8")
            text = mutate(copy, rel, line_no)
            nodes = named.get(rid, [])
            nodes = rng.sample(nodes, min(args.max_tests, len(nodes)))
            outcome = run_tests(copy, nodes, args.timeout)
            (copy / rel).write_text(original, encoding="utf-8")
            print(f"{rid:16} {rel}:{line_no + 1}  {outcome}   [{text}]", flush=True)
            if outcome.startswith("SURVIVED"):
                survivors.append(rid)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(ids) - len(survivors)} of {len(ids)} mutants killed; survivors: {survivors} "
          f"({time.time() - t0:.0f} s)")
    sys.exit(1 if survivors else 0)


if __name__ == "__main__":
    main()
