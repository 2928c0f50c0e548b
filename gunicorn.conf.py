"""gunicorn settings, each from the environment with a default."""
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WORKERS", "2"))
threads = int(os.environ.get("THREADS", "4"))
worker_class = "gthread"
timeout = int(os.environ.get("TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("KEEPALIVE", "5"))
max_requests = int(os.environ.get("MAX_REQUESTS", "0"))
accesslog = os.environ.get("ACCESS_LOG", None)
loglevel = os.environ.get("LOG_LEVEL", "info")
