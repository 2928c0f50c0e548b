# syntax=docker/dockerfile:1
# Seafarers Referee: gunicorn serving the Flask app, as a non-root user.
#   docker build -t seafarers-referee:0.1.0 .
#   docker run --rm -p 8000:8000 -e REDIS_URL=redis://host:6379/0 -e REDIS_HMAC_KEY=... seafarers-referee:0.1.0

# ---- build: resolve and install the dependencies into a virtual environment --------------------------
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
RUN python -m venv /opt/venv
# Exactly the pinned, hashed dependencies of requirements.lock (made from pyproject.toml by pip-compile), so
# two builds install the same bytes; the runtime stage runs the code itself from /app, beside openapi.yaml.
COPY requirements.lock ./
RUN /opt/venv/bin/pip install --require-hashes --no-deps -r requirements.lock \
 && /opt/venv/bin/pip check

# ---- runtime ------------------------------------------------------------------------------------------
FROM python:3.11-slim AS runtime
LABEL org.opencontainers.image.title="seafarers-referee" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.description="A stateless REST referee for Catan with the Seafarers expansion"
# PNG rendering (cairosvg) loads the cairo library and draws text with a font found through fontconfig;
# nginx fronts gunicorn in the container (deploy/nginx.conf.template says why; it runs as the app user).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libcairo2 fonts-dejavu-core nginx \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin app
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY --chown=root:root service ./service
COPY --chown=root:root openapi.yaml gunicorn.conf.py ./
COPY --chown=root:root deploy ./deploy
COPY --chown=root:root bin/start-with-proxy ./bin/start-with-proxy
ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONPATH=/app \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    WORKERS=2 \
    THREADS=4 \
    PROBE_BIND=0.0.0.0:8001 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/prometheus
USER 10001:10001
EXPOSE 8000
# (port 8001: the health probes, PROBE_BIND, answered by the gunicorn master whatever the load)
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8001/healthz', timeout=2).status != 200)"]
# nginx on :8000, gunicorn ("gunicorn -c gunicorn.conf.py service.api:create_app()") on a unix socket
CMD ["/app/bin/start-with-proxy"]
