"""Builds the client from the contract: ``generate.py`` writes ``seafarers_referee_client`` into ``src/``
(not kept in the repository) from ``openapi.yaml`` at the repository's root, and the version is the
service's. Built from a checkout of the repository (the contract is read from it)."""
import sys
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import PACKAGE, generate, service_version  # noqa: E402

SRC = HERE / "src"
generate(SRC)
setup(version=service_version(), package_dir={"": "src"}, packages=find_packages(str(SRC)),
      package_data={PACKAGE: ["py.typed"]})
