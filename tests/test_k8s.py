"""The Kubernetes manifests and the Dockerfile, checked without a cluster or a container engine.

Each manifest is validated against the Kubernetes JSON schemas shipped by kubernetes-validate (offline,
strict: unknown fields are errors); then the files are checked against each other, the Dockerfile and
the app: probe paths are routes, ports, image name and user agree, selectors select the pods, and every
ConfigMap key is a setting the service reads.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from service.api import create_app

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "k8s"
K8S_VERSION = "1.30"  # oldest Kubernetes the manifests are meant for


def docs() -> list[dict]:
    out = []
    for f in sorted(K8S.glob("*.yaml")):
        out += [d for d in yaml.safe_load_all(f.read_text()) if d]
    return out


def one(kind: str, name: str) -> dict:
    found = [d for d in docs() if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} found"
    return found[0]


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instr, _, rest = line.partition(" ")
            out.append((instr.upper(), rest.strip()))
    return out


def instr(name: str) -> list[str]:
    return [a for i, a in dockerfile() if i == name]


def docker_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for a in instr("ENV"):
        for tok in shlex.split(a):
            k, _, v = tok.partition("=")
            env[k] = v
    return env


def docker_labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    for a in instr("LABEL"):
        for tok in shlex.split(a):
            k, _, v = tok.partition("=")
            labels[k] = v
    return labels


APP = one("Deployment", "seafarers-referee")
POD = APP["spec"]["template"]
CONTAINER = POD["spec"]["containers"][0]


@pytest.mark.parametrize("doc", docs(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_manifest_is_valid_against_the_kubernetes_schema(doc):
    kv = pytest.importorskip("kubernetes_validate", reason="kubernetes-validate is not installed (test extra)")
    try:
        kv.validate(doc, K8S_VERSION, strict=True)
    except kv.ValidationError as e:
        pytest.fail(f"{doc['kind']}/{doc['metadata']['name']}: {e.message} at {list(e.path)}", pytrace=False)


def test_all_the_kinds_are_there():
    kinds = sorted((d["kind"], d["metadata"]["name"]) for d in docs())
    assert kinds == sorted([
        ("ConfigMap", "seafarers-referee-config"), ("Deployment", "seafarers-referee"),
        ("Deployment", "seafarers-redis"), ("HorizontalPodAutoscaler", "seafarers-referee"),
        ("PodDisruptionBudget", "seafarers-referee"), ("Service", "seafarers-redis"),
        ("Service", "seafarers-referee"),
    ])


def test_dockerfile_is_multi_stage_slim_non_root_with_healthcheck_and_gunicorn():
    froms = instr("FROM")
    assert len(froms) >= 2 and all(f.startswith("python:3.11-slim") for f in froms)
    assert instr("COPY") and any("--from=build" in c for c in instr("COPY"))
    user = instr("USER")[-1]
    assert not user.startswith(("root", "0"))
    hc = instr("HEALTHCHECK")[-1]
    assert "/healthz" in hc and "CMD" in hc
    cmd = json.loads(instr("CMD")[-1])
    assert cmd == ["/app/bin/start-with-proxy"]   # nginx in front of gunicorn
    script = (ROOT / "bin" / "start-with-proxy").read_text()
    assert '-c gunicorn.conf.py "service.api:create_app()"' in script and "nginx" in script
    assert any("nginx" in r for r in instr("RUN"))
    copied = " ".join(instr("COPY"))
    assert "bin/start-with-proxy" in copied and "deploy" in copied


def test_probes_are_routes_of_the_app_on_the_exposed_port():
    routes = {r.rule for r in create_app({"TESTING": True, "REDIS_URL": None}).url_map.iter_rules()}
    port = int(instr("EXPOSE")[-1].split("/")[0])
    assert f"listen {port} default_server" in (ROOT / "deploy" / "nginx.conf.template").read_text()
    assert 'LISTEN="${LISTEN:-' + str(port) + '}"' in (ROOT / "bin" / "start-with-proxy").read_text()
    ports = {p["name"]: p["containerPort"] for p in CONTAINER["ports"]}
    # the probes go to the gunicorn master's probe port (service/probes.py), which answers under any load
    probe_port = int(one("ConfigMap", "seafarers-referee-config")["data"]["PROBE_BIND"].rpartition(":")[2])
    assert ports == {"http": port, "probe": probe_port}
    assert f"PROBE_BIND=0.0.0.0:{probe_port}" in " ".join(instr("ENV"))
    assert f":{probe_port}/healthz" in instr("HEALTHCHECK")[-1]
    assert {"/healthz", "/readyz", "/metrics"} <= routes     # (the app answers them too, on its own port)
    assert CONTAINER["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert CONTAINER["livenessProbe"]["httpGet"]["path"] == "/healthz"
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        get = CONTAINER[probe]["httpGet"]
        assert get["path"] in ("/healthz", "/readyz") and get["port"] == "probe"
    env = {e["name"]: e.get("value") for e in CONTAINER.get("env", [])}
    assert "BIND" not in env   # the start script binds gunicorn to its unix socket
    ann = POD["metadata"]["annotations"]
    assert ann["prometheus.io/path"] in routes and int(ann["prometheus.io/port"]) == port


def test_image_and_user_agree_with_the_dockerfile():
    labels = docker_labels()
    project_version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert labels["org.opencontainers.image.version"] == project_version
    assert CONTAINER["image"] == f'{labels["org.opencontainers.image.title"]}:{project_version}'
    uid, _, gid = instr("USER")[-1].partition(":")
    sc, psc = CONTAINER["securityContext"], POD["spec"]["securityContext"]
    assert psc["runAsNonRoot"] is True and psc["runAsUser"] == int(uid) and psc["runAsGroup"] == int(gid)
    assert sc["allowPrivilegeEscalation"] is False and sc["capabilities"]["drop"] == ["ALL"]
    if sc.get("readOnlyRootFilesystem"):  # then the places the service writes must be volumes
        mounts = {m["mountPath"] for m in CONTAINER["volumeMounts"]}
        multiproc = {e["name"]: e.get("value") for e in CONTAINER["env"]}.get("PROMETHEUS_MULTIPROC_DIR")
        assert "/tmp" in mounts and (multiproc or "/tmp").startswith("/tmp/")
    res = CONTAINER["resources"]
    assert {"cpu", "memory"} <= set(res["requests"]) and {"cpu", "memory"} <= set(res["limits"])


def test_services_hpa_and_pdb_point_at_the_right_pods():
    pod_labels = POD["metadata"]["labels"]
    assert APP["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    svc = one("Service", "seafarers-referee")
    assert svc["spec"]["selector"].items() <= pod_labels.items()
    assert svc["spec"]["ports"][0]["targetPort"] in {p["name"] for p in CONTAINER["ports"]}
    pdb = one("PodDisruptionBudget", "seafarers-referee")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    assert pdb["spec"]["minAvailable"] < APP["spec"]["replicas"]
    hpa = one("HorizontalPodAutoscaler", "seafarers-referee")
    ref = hpa["spec"]["scaleTargetRef"]
    assert (ref["kind"], ref["name"]) == ("Deployment", "seafarers-referee")
    assert hpa["spec"]["minReplicas"] > pdb["spec"]["minAvailable"]
    assert "cpu" in CONTAINER["resources"]["requests"]  # utilisation targets need a request


def test_configmap_keys_are_settings_the_service_reads_and_redis_url_names_the_redis_service():
    cm = one("ConfigMap", "seafarers-referee-config")
    refs = [e["configMapRef"]["name"] for e in CONTAINER["envFrom"]]
    assert refs == [cm["metadata"]["name"]]
    sources = (ROOT / "gunicorn.conf.py").read_text() + "".join(
        p.read_text() for p in (ROOT / "service").rglob("*.py"))
    for key in cm["data"]:
        assert f'"{key}"' in sources, f"{key} is read by nothing"
    url = urlparse(cm["data"]["REDIS_URL"])
    redis_svc, redis_app = one("Service", "seafarers-redis"), one("Deployment", "seafarers-redis")
    assert url.hostname == redis_svc["metadata"]["name"] and url.port == redis_svc["spec"]["ports"][0]["port"]
    redis_pod = redis_app["spec"]["template"]
    assert redis_svc["spec"]["selector"].items() <= redis_pod["metadata"]["labels"].items()
    assert redis_pod["spec"]["securityContext"]["runAsNonRoot"] is True


def test_dockerignore_keeps_the_context_small():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", "tests", "k8s"} <= ignored
    for needed in ("service", "openapi.yaml", "gunicorn.conf.py", "pyproject.toml"):
        assert needed not in ignored
