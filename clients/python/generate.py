"""The typed Python client, ``seafarers_referee_client``, generated from the published contract.

    python clients/python/generate.py OUT        # (bin/python-client): the package's source into OUT/

The generator is openapi-python-client, at the version pinned in ``clients/python/pyproject.toml`` (the
same contract gives the same code), run on ``openapi.yaml`` at the repository's root with
``config.yaml`` beside this file (no formatting hooks: the output is the generator's own). Its version is
the service's (``[project] version`` of the repository's ``pyproject.toml``); ``_contract.py``, added to
the generated package, names that version and the SHA-256 of the contract it was generated from, and
``py.typed`` marks it typed (PEP 561).
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SPEC = ROOT / "openapi.yaml"
PACKAGE = "seafarers_referee_client"


def service_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def generate(out: Path, spec: Path = SPEC) -> Path:
    """Write the client package into ``out / PACKAGE`` (replacing what is there); returns that folder."""
    target = Path(out) / PACKAGE
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp) / PACKAGE
        r = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
                            "--meta", "none", "--config", str(HERE / "config.yaml"), "--output-path", str(made)],
                           capture_output=True, text=True)
        log = r.stdout + r.stderr
        if r.returncode != 0 or "Unable to process schema" in log or "will be omitted" in log:
            raise SystemExit(f"the client could not be generated from {spec}:\n{log[-4000:]}")
        data = spec.read_bytes()
        (made / "_contract.py").write_text(
            '"""The contract this client was generated from (clients/python/generate.py)."""\n\n'
            f"VERSION = {service_version()!r}\n"
            f"CONTRACT_SHA256 = {hashlib.sha256(data).hexdigest()!r}\n", encoding="utf-8")
        (made / "py.typed").write_text("", encoding="utf-8")     # (PEP 561: the package is typed)
        init = made / "__init__.py"
        init.write_text(init.read_text(encoding="utf-8") + "\nfrom ._contract import CONTRACT_SHA256, VERSION as __version__\n",
                        encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(made, target)
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__.strip().split("\n\n")[1])
    print(generate(Path(sys.argv[1])))
