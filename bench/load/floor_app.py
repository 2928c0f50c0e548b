"""The floor of the load benchmark: a WSGI app that reads the body and answers a fixed small JSON.

Served by the same gunicorn configuration as the referee, it measures what HTTP parsing, gunicorn's
worker threads and the loopback cost per request on this machine, so the referee's cost can be read
as a multiple of it (a ratio that carries from one machine to another, unlike requests per second).
"""

ANSWER = b'{"legal":true}'


def app(environ, start_response):
    environ["wsgi.input"].read()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(ANSWER)))])
    return [ANSWER]
