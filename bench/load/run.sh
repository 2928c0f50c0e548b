#!/usr/bin/env bash
# Load benchmark: gunicorn with 2 workers on 127.0.0.1, no Redis / Redis up / Redis down side by side.
# Bounded: --duration seconds of load per configuration (default 5). Uses wrk when installed
# (apt-get install wrk), otherwise a Python load generator. See bench/load/bench.py --help.
source "$(dirname "$0")/../../bin/_env"
exec .venv/bin/python bench/load/bench.py "$@"
