"""The Kubernetes manifests in deploy/: schema-valid for a pinned Kubernetes, and consistent with each other.

Every YAML document in deploy/ (kustomization.yaml aside, which is no Kubernetes object) is checked
against the JSON schema that ``kubernetes-validate`` ships for :data:`K8S_VERSION`, in strict mode so an
unknown or misspelt field fails too. The schemas are inside the package: no network at test time.

Then the relations an operator relies on and no schema can see: the kill deadline covers the preStop
sleep and the drain, the probes hit the right endpoints, the memory request and limit follow from the
worker count and the per-worker budgets set in the same manifest, and every selector and target points
at the Deployment's pods.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import all_versions, major_minor

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
K8S_VERSION = "1.31.0"  # the Kubernetes release whose schemas the manifests must satisfy
MASTER_MIB = 84  # the master's private memory with every language loaded (bench/soak.py prints it: "loaded service")
LEXICONS = ROOT / "build" / "lexicons"  # memory-mapped by every worker: one copy in the page cache, as large as the files
STARTUP_SECONDS = 60  # time the startup probe must allow for loading the lexicons
COMMON_LABELS = {"app.kubernetes.io/name": "wordsvc", "app.kubernetes.io/component": "api"}

MANIFESTS = sorted(p for p in DEPLOY.glob("*.y*ml") if p.name != "kustomization.yaml")


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def _all_documents() -> list[tuple[str, int, dict[str, Any]]]:
    return [(p.name, i, doc) for p in MANIFESTS for i, doc in enumerate(_documents(p))]


def _one(kind: str) -> dict[str, Any]:
    found = [doc for _, _, doc in _all_documents() if doc.get("kind") == kind]
    assert len(found) == 1, f"expected exactly one {kind} in deploy/, found {len(found)}"
    return found[0]


def _container(deployment: dict[str, Any]) -> dict[str, Any]:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, "the wordsvc pod runs one container"
    return containers[0]


def _env(container: dict[str, Any]) -> dict[str, str]:
    env = {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}
    names = [e["name"] for e in container.get("env", [])]
    assert len(names) == len(set(names)), f"duplicate env entries: {names}"
    return env


_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
_DECIMAL = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def _bytes(quantity: str | int) -> int:
    """A Kubernetes memory quantity ("640Mi", "1Gi", "671088640", "700M") in bytes."""
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|Ti|k|M|G|T|)", str(quantity))
    assert m, f"unsupported memory quantity {quantity!r}"
    number, unit = int(m.group(1)), m.group(2)
    return number * (_BINARY.get(unit) or _DECIMAL[unit])


def _cpu_millis(quantity: str | int | float) -> int:
    text = str(quantity)
    return int(text[:-1]) if text.endswith("m") else round(float(text) * 1000)


def _matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


# --- schemas -------------------------------------------------------------------------------------------


def test_pinned_kubernetes_version_is_shipped() -> None:
    versions = all_versions()
    assert K8S_VERSION in versions, f"kubernetes-validate {kubernetes_validate.__version__} ships schemas for {versions[0]}..{versions[-1]}, not {K8S_VERSION}"


def test_deploy_has_the_manifests() -> None:
    assert {p.name for p in MANIFESTS} >= {"deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"}


@pytest.mark.parametrize(("name", "index", "doc"), [pytest.param(*d, id=f"{d[0]}#{d[1]}-{d[2].get('kind')}") for d in _all_documents()])
def test_manifest_matches_kubernetes_schema(name: str, index: int, doc: dict[str, Any]) -> None:
    try:
        used = kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
    except kubernetes_validate.ValidationError as e:
        where = ".".join(str(p) for p in e.path)
        pytest.fail(f"{name} document {index} ({doc.get('kind')}): {where}: {e.message}")
    except kubernetes_validate.SchemaNotFoundError as e:
        pytest.fail(f"{name} document {index}: {e.message}")
    # No silent fallback to the schemas of an older release.
    assert used == major_minor(K8S_VERSION)


def test_every_object_has_the_common_labels() -> None:
    for name, index, doc in _all_documents():
        labels = doc["metadata"].get("labels", {})
        assert COMMON_LABELS.items() <= labels.items(), f"{name} document {index} lacks the common labels: {labels}"


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text(encoding="utf-8"))
    assert kustomization["apiVersion"] == "kustomize.config.k8s.io/v1beta1"
    assert kustomization["kind"] == "Kustomization"
    resources = kustomization["resources"]
    assert len(resources) == len(set(resources)), f"a resource is listed twice: {resources}"
    assert sorted(resources) == sorted(p.name for p in MANIFESTS)


# --- the Deployment's own numbers ----------------------------------------------------------------------


def test_graceful_shutdown_fits_in_the_grace_period() -> None:
    deployment = _one("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert len(command) == 2 and command[0] == "sleep", f"preStop should be a plain sleep, is {command}"
    pre_stop = int(command[1])
    assert pre_stop > 0
    drain = int(_env(container)["WORDSVC_DRAIN_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] >= pre_stop + drain, (
        f"terminationGracePeriodSeconds {pod['terminationGracePeriodSeconds']} < preStop {pre_stop} s + drain {drain} s"
    )


def test_probes() -> None:
    container = _container(_one("Deployment"))
    port_names = {p.get("name") for p in container["ports"]}
    probes = {kind: container[kind] for kind in ("readinessProbe", "livenessProbe", "startupProbe")}
    for kind, probe in probes.items():
        assert probe["httpGet"]["port"] in port_names | {p["containerPort"] for p in container["ports"]}, f"{kind} probes a port the container lacks"
    assert probes["readinessProbe"]["httpGet"]["path"] == "/ready"
    assert probes["livenessProbe"]["httpGet"]["path"] == "/health"
    assert probes["startupProbe"]["httpGet"]["path"] == "/health"
    startup = probes["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= STARTUP_SECONDS
    for kind, probe in probes.items():
        assert probe["timeoutSeconds"] < probe["periodSeconds"], f"{kind}: a probe should time out before the next one starts"


def test_port_matches_the_environment() -> None:
    container = _container(_one("Deployment"))
    http = [p for p in container["ports"] if p.get("name") == "http"]
    assert len(http) == 1
    env = _env(container)
    assert http[0]["containerPort"] == int(env["WORDSVC_PORT"])
    assert env["WORDSVC_HOST"] == "0.0.0.0", "bound to loopback the pod would be unreachable"


def test_memory_follows_from_workers_and_budgets() -> None:
    container = _container(_one("Deployment"))
    env = _env(container)
    workers = int(env["WORDSVC_WORKERS"])
    budget = int(env["WORDSVC_MEMORY_BUDGET_MB"])
    max_rss = int(env["WORDSVC_MAX_WORKER_RSS_MB"])
    assert 0 < budget < max_rss, "a worker's budget should sit below the RSS at which it is recycled"
    resources = container["resources"]
    mib = 2**20
    shared = _bytes(resources["requests"]["memory"]) - workers * budget * mib  # the master and the lexicons' pages
    assert _bytes(resources["limits"]["memory"]) - workers * max_rss * mib == shared, "request and limit should allow the same for what the workers share"
    lexicons = sum(f.stat().st_size for f in LEXICONS.rglob("*") if f.is_file()) if LEXICONS.is_dir() else 0
    assert shared >= MASTER_MIB * mib + lexicons, f"{shared / mib:.0f} MiB for the master and {lexicons / mib:.0f} MiB of lexicon files"


def test_cpu_request_for_the_autoscaler() -> None:
    resources = _container(_one("Deployment"))["resources"]
    # The HPA's utilization target is a share of the CPU request: without one it cannot scale.
    request, limit = _cpu_millis(resources["requests"]["cpu"]), _cpu_millis(resources["limits"]["cpu"])
    assert 0 < request <= limit


def test_hardened_security_context() -> None:
    deployment = _one("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    sc = container["securityContext"]
    effective = {**pod.get("securityContext", {}), **sc}
    assert effective["runAsNonRoot"] is True
    dockerfile_uid = re.search(r"useradd\b[^\n]*--uid\s+(\d+)", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    assert dockerfile_uid, "the Dockerfile should create the service user with a fixed uid"
    assert effective["runAsUser"] == int(dockerfile_uid.group(1)) == 10001
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]
    assert not sc["capabilities"].get("add")
    assert effective["seccompProfile"]["type"] == "RuntimeDefault"
    # With a read-only root, /tmp must be a writable volume (the workers' shared Prometheus folder lives there).
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert "/tmp" in mounts
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    # Service links would set WORDSVC_PORT=tcp://... and friends for the Service named wordsvc.
    assert pod["enableServiceLinks"] is False


# --- cross-object relations ----------------------------------------------------------------------------


def test_selectors_and_targets_match_the_deployment() -> None:
    deployment, service, pdb, hpa = _one("Deployment"), _one("Service"), _one("PodDisruptionBudget"), _one("HorizontalPodAutoscaler")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    deployment_selector = deployment["spec"]["selector"]["matchLabels"]
    assert deployment_selector == COMMON_LABELS
    assert _matches(deployment_selector, pod_labels), "the Deployment's selector must select its own pods"
    assert service["spec"]["selector"] == deployment_selector
    assert pdb["spec"]["selector"] == {"matchLabels": deployment_selector}
    for constraint in deployment["spec"]["template"]["spec"].get("topologySpreadConstraints", []):
        assert constraint["labelSelector"] == {"matchLabels": deployment_selector}
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (deployment["apiVersion"], "Deployment", deployment["metadata"]["name"])


def test_service_reaches_the_http_port() -> None:
    service = _one("Service")
    assert service["spec"].get("type", "ClusterIP") == "ClusterIP"
    ports = service["spec"]["ports"]
    assert [(p["port"], p["targetPort"]) for p in ports] == [(80, "http")]
    container_port_names = {p.get("name") for p in _container(_one("Deployment"))["ports"]}
    assert ports[0]["targetPort"] in container_port_names


def test_replicas_autoscaling_and_disruption_budget_agree() -> None:
    deployment, pdb, hpa = _one("Deployment"), _one("PodDisruptionBudget"), _one("HorizontalPodAutoscaler")
    replicas = deployment["spec"]["replicas"]
    spec = hpa["spec"]
    assert spec["minReplicas"] == replicas == 3
    assert spec["maxReplicas"] == 10
    cpu = [m["resource"] for m in spec["metrics"] if m["type"] == "Resource" and m["resource"]["name"] == "cpu"]
    assert cpu == [{"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}]
    # At the minimum scale the budget must still allow one eviction, or node drains block forever.
    if "minAvailable" in pdb["spec"]:
        assert 0 < pdb["spec"]["minAvailable"] < spec["minReplicas"]
    else:
        assert pdb["spec"]["maxUnavailable"] >= 1


def test_replicas_share_a_postgresql_ledger_from_a_secret() -> None:
    """Several pods cannot share the default SQLite file (and the root filesystem is read-only): the URL comes from a Secret."""
    deployment = _one("Deployment")
    assert deployment["spec"]["replicas"] > 1
    env = {e["name"]: e for e in _container(deployment)["env"]}
    source = env["WORDSVC_DATABASE_URL"]
    assert "value" not in source  # never a password in the manifest
    assert source["valueFrom"]["secretKeyRef"] == {"name": "wordsvc-database", "key": "url"}
    assert "kubectl create secret generic wordsvc-database --from-literal=url=" in (DEPLOY / "README.md").read_text(encoding="utf-8")
