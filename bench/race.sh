#!/bin/sh
# The speed race against catanatron (bench/race.py); creates bench/.venv-race on first use.
cd "$(dirname "$0")/.." && exec .venv/bin/python bench/race.py "$@"
