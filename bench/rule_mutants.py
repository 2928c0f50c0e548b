"""A sampled mutation audit of the rules: does a rule's own test catch a broken implementation?

    .venv/bin/python bench/rule_mutants.py --sample 50 --seed 1 --own
    .venv/bin/python bench/rule_mutants.py --ids CK-IMP-4,GOLD-022 --all-sites
    .venv/bin/python bench/rule_mutants.py --sample 50 --seed 2 --list     # what would be run, nothing run

Takes the rule IDs the engine cites where it refuses an action (a ``return [Violation("ID", ...`` or an
``.append(Violation("ID", ...`` line under ``service/engine``) and that some test names (a test function whose
source holds the ID), samples them, and for each makes one mutant: one such line, chosen by the seed,
disabled (``if False: return [...]``), so the check no longer refuses and the code goes on as if it had
passed. The mutant runs in a copy of the repository (the working tree is never touched), against the test
functions that name the ID; the mutant survives when they all pass. Prints each ID with the line mutated
and the outcome, then the count of survivors (target: none).

``--own`` runs only the ID's own tests: the test functions that name it in their name or docstring (those
written for the rule), not the ones that only mention it (a property test listing IDs, a long random game);
an ID without one counts as a survivor. ``--all-sites`` mutates every refusing line of each ID in turn
instead of one chosen by the seed. Tests marked ``slow`` are never run. Lines no request can reach
(``EQUIVALENT``, each with its reason) are not mutated. Not part of the default test run
(``tests/test_rule_mutants.py`` only checks, on one ID, that its line and own test are found and a mutant
is made). See docs/rule-checks.md.
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
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
SITE = re.compile(r"""^(\s*)(return \[Violation\(|[A-Za-z_][A-Za-z_0-9.]*\.append\(\(?Violation\()["']([A-Z0-9]+(?:-[A-Z0-9]+)+)["']""")
ID_IN_TEXT = re.compile(r"\b((?:SEA|SC\d\d|TDE\d|GOLD|DIAM|WAG|BASE|CK|R)(?:-[A-Z0-9]+)+)\b")


#: Refusing lines whose mutant is equivalent (no request can reach them: an earlier check or the input
#: boundary refuses first), by file and a piece of the line; they are not mutated.
EQUIVALENT = {
    ("service/engine/modules/cities_and_knights/actions.py", '"SEA-028", "this scenario has no pirate"'):
        "move_pirate is declared only where the scenario has a pirate, and chase_robber's knight must stand "
        "at the pirate's hex first (CK-SEA-9)",
    ("service/engine/placement.py", "a settlement needs an empty intersection"):
        "both ways of building a settlement refuse an occupied intersection first (BASE-BUILD-8)",
    ("service/engine/modules/cities_and_knights/actions.py", "only resources and commodities are traded (CK-COM-4)"):
        "with Cities & Knights the input boundary admits only resource and commodity names in a trade",
    ("service/engine/modules/tde6_enchanted_land/knights.py", "no free inland intersection of the Enchanted Land is left"):
        "18 inland intersections, no building inland (TDE6-009) and at most one knight across per player "
        "(TDE6-013): one is always free",
    ("service/engine/modules/tde6_enchanted_land/scenario.py", "only knights are on the Enchanted Land: "):
        "the Deserter's own check (CK-PROG-P3) first wants one of the target's knights named; with all of them "
        "across that one is across, refused by the line before",
}


def sites(root: Path) -> dict[str, list[tuple[str, int]]]:
    """Rule ID -> [(file relative to root, line number)] of the lines that refuse citing it (``EQUIVALENT``
    lines left out)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for p in sorted((root / "service" / "engine").rglob("*.py")):
        rel = str(p.relative_to(root))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines()):
            m = SITE.match(line)
            if m and not any(f == rel and piece in line for f, piece in EQUIVALENT):
                out.setdefault(m.group(3), []).append((rel, i))
    return out


def test_functions(root: Path) -> Iterator[tuple[Path, str, ast.AST]]:
    """Each test function of ``root/tests/test_*.py``: (its file, the file's text, its node)."""
    for p in sorted((root / "tests").glob("test_*.py")):
        text = p.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                yield p, text, node


def tests_naming(root: Path) -> dict[str, list[str]]:
    """Rule ID -> pytest node ids of the test functions whose source names it."""
    out: dict[str, list[str]] = {}
    for p, text, node in test_functions(root):
        src = ast.get_source_segment(text, node) or ""
        for rid in set(ID_IN_TEXT.findall(src)) | set(ID_IN_TEXT.findall(node.name.replace("_", "-"))):
            out.setdefault(rid, []).append(f"tests/{p.name}::{node.name}")
    return out


def own_tests(root: Path) -> dict[str, list[str]]:
    """Rule ID -> pytest node ids of the test functions that name it in their docstring or in their name
    (``test_..._CK_IMP_1`` or ``test_sea_010_...``)."""
    out: dict[str, list[str]] = {}
    for p, text, node in test_functions(root):
        doc = ast.get_docstring(node) or ""
        src = ast.get_source_segment(text, node) or ""
        name = node.name.lower()
        in_name = {rid for rid in set(ID_IN_TEXT.findall(src)) | set(ID_IN_TEXT.findall(node.name.replace("_", "-")))
                   if re.search(rf"(?<![a-z0-9]){rid.lower().replace('-', '_')}(?![0-9])", name)}
        for rid in set(ID_IN_TEXT.findall(doc)) | in_name:
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
    if not nodes:
        return "SURVIVED: no test to run"
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--sample", type=int, default=50, help="rule IDs sampled (default 50)")
    ap.add_argument("--seed", type=int, default=1, help="chooses the IDs, their lines and their tests")
    ap.add_argument("--ids", help="comma-separated rule IDs instead of a sample")
    ap.add_argument("--own", action="store_true", help="run only the tests naming the ID in name or docstring")
    ap.add_argument("--all-sites", action="store_true", help="a mutant per refusing line of each ID")
    ap.add_argument("--list", action="store_true", help="print the mutants and their tests, run nothing")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per mutant's tests")
    ap.add_argument("--max-tests", type=int, default=12, help="test functions run per mutant (sampled)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    where = sites(ROOT)
    named = tests_naming(ROOT)
    tests_of = own_tests(ROOT) if args.own else named
    covered = sorted(i for i in where if i in named)
    ids = args.ids.split(",") if args.ids else rng.sample(covered, min(args.sample, len(covered)))
    unknown = [i for i in ids if i not in where]
    if unknown:
        ap.error(f"not refused at any line of the engine: {', '.join(unknown)}")
    mutants = []
    for rid in ids:
        chosen = where[rid] if args.all_sites else [rng.choice(where[rid])]
        nodes = tests_of.get(rid, [])
        nodes = rng.sample(nodes, min(args.max_tests, len(nodes)))
        mutants += [(rid, rel, line_no, nodes) for rel, line_no in chosen]
    print(f"{len(where)} rule IDs refused at a line of the engine, {len(covered)} of them named by a test; "
          f"{len(ids)} IDs, {len(mutants)} mutants" + (" (own tests)" if args.own else ""))
    if args.list:
        for rid, rel, line_no, nodes in mutants:
            print(f"{rid:16} {rel}:{line_no + 1}  {' '.join(nodes) or '(no test)'}")
        return
    tmp = Path(tempfile.mkdtemp(prefix="rule-mutants-"))
    copy = tmp / "repo"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.pyc"))
    survivors = []
    t0 = time.time()
    try:
        for rid, rel, line_no, nodes in mutants:
            original = (copy / rel).read_text(encoding="utf-8")
            text = mutate(copy, rel, line_no)
            outcome = run_tests(copy, nodes, args.timeout)
            (copy / rel).write_text(original, encoding="utf-8")
            print(f"{rid:16} {rel}:{line_no + 1}  {outcome}   [{text}]", flush=True)
            if outcome.startswith("SURVIVED"):
                survivors.append(f"{rid}@{rel}:{line_no + 1}" if args.all_sites else rid)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(mutants) - len(survivors)} of {len(mutants)} mutants killed; survivors: {survivors} "
          f"({time.time() - t0:.0f} s)")
    sys.exit(1 if survivors else 0)


if __name__ == "__main__":
    main()
