#!/usr/bin/env python3
"""deploy/overlays rendered with `kubectl kustomize` and read as a cluster would: ports agree
(containerPort, --listen, probes, Service), the Knative Service uses none of the queue-proxy's
ports, every path the container reads or writes is a mounted volume, the container cannot gain
privileges, the RBAC is what cluster mode calls, and each ScaledObject scales the Deployment.
The manifests each overlay mounts pass `ganglion validate --listen 8080`, and deploy/base's are
the quick start's. With the schemas make test installs (tests/deploy/schema, from npm), every
rendered object validates against the Kubernetes, Knative Serving and KEDA schemas. Exit 77 (ctest: skipped) when no kubectl is installed."""

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

REPO = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GANGLION = sys.argv[2] if len(sys.argv) > 2 else None
# Where make test installed tests/deploy/schema (validate.mjs and its node_modules), if it could.
SCHEMAS = sys.argv[3] if len(sys.argv) > 3 else None
OVERLAYS = os.path.join(REPO, "deploy", "overlays")
KNATIVE_RESERVED = {8012, 8013, 8022, 9090, 9091}
# What cluster mode calls (docs/kubernetes.md): nothing more may be granted.
ROLE_RULES = {
    ("argoproj.io", "eventsources", "get"), ("argoproj.io", "eventsources", "list"),
    ("argoproj.io", "eventsources", "watch"), ("argoproj.io", "sensors", "get"),
    ("argoproj.io", "sensors", "list"), ("argoproj.io", "sensors", "watch"),
    ("argoproj.io", "eventbus", "get"), ("argoproj.io", "eventbus", "list"),
    ("argoproj.io", "eventbus", "watch"),
    ("argoproj.io", "eventsources/status", "get"), ("argoproj.io", "eventsources/status", "update"),
    ("argoproj.io", "eventsources/status", "patch"), ("argoproj.io", "sensors/status", "get"),
    ("argoproj.io", "sensors/status", "update"), ("argoproj.io", "sensors/status", "patch"),
    ("argoproj.io", "eventbus/status", "get"), ("argoproj.io", "eventbus/status", "update"),
    ("argoproj.io", "eventbus/status", "patch"),
    ("", "secrets", "get"), ("", "secrets", "list"), ("", "secrets", "watch"),
    ("", "serviceaccounts", "impersonate"),
}
# Flags whose value is a path the container reads or writes.
PATH_FLAGS = {"-f": "r", "--file": "r", "--secrets-dir": "r", "--data-dir": "w",
              "--admin-token-file": "r", "--kubeconfig": "r", "--grpc-ca-file": "r",
              "--artifact-ca-file": "r"}

failures = []


def fail(overlay, what):
    failures.append(f"{overlay}: {what}")


def render(overlay):
    out = subprocess.run(["kubectl", "kustomize", os.path.join(OVERLAYS, overlay)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        fail(overlay, f"kubectl kustomize failed: {out.stderr.strip()}")
        return []
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def workload(objects):
    """(kind, object, pod spec) of the one workload that runs ganglion."""
    for o in objects:
        if o["kind"] in ("Deployment", "StatefulSet") or (
                o["kind"] == "Service" and o["apiVersion"].startswith("serving.knative.dev")):
            return o["kind"], o, o["spec"]["template"]["spec"]
    return None, None, None


def flag(args, name):
    """The value after `name` in args, or None."""
    return args[args.index(name) + 1] if name in args else None


def check_ports(overlay, objects, kind, pod, container):
    args = container.get("args", [])
    declared = container.get("ports", [])
    names = {p.get("name"): p["containerPort"] for p in declared if p.get("name")}
    admin = flag(args, "--admin")
    if admin is not None:
        # The admin endpoints (/metrics for a scraper) on a port of their own, named `admin`.
        if names.get("admin") != int(admin.rsplit(":", 1)[1]):
            fail(overlay, f"--admin {admin} is not the container port named admin")
        if "--admin-token-file" not in args and not admin.startswith("127.0.0.1:"):
            fail(overlay, f"--admin {admin} is reachable from outside the pod without a token")
        declared = [p for p in declared if p.get("name") != "admin"]
    ports = [p["containerPort"] for p in declared]
    if len(ports) != 1:
        fail(overlay, f"the container declares {len(ports)} serving ports; ganglion serves one")
        return
    listen = flag(args, "--listen")
    if kind == "Service":  # Knative: $PORT is the containerPort
        if listen is not None:
            fail(overlay, "a Knative Service passes no --listen: ganglion takes $PORT")
        if "--admin" in args:
            fail(overlay, "a Knative Service binds no admin port")
        for port in ports + [int(a.rsplit(":", 1)[1]) for a in args if ":" in a and
                             a.rsplit(":", 1)[1].isdigit()]:
            if port in KNATIVE_RESERVED:
                fail(overlay, f"port {port} is one of Knative's reserved ports")
    elif listen is None or int(listen.rsplit(":", 1)[1]) != ports[0]:
        fail(overlay, f"--listen {listen} is not the containerPort {ports[0]}")
    for probe, path in (("readinessProbe", "/ready"), ("livenessProbe", "/health")):
        get = container.get(probe, {}).get("httpGet")
        if not get or get.get("path") != path:
            fail(overlay, f"{probe} is not GET {path}")
            continue
        port = get.get("port")
        if kind != "Service" and names.get(port, port) != ports[0]:
            fail(overlay, f"{probe} probes port {port}, not the serving port {ports[0]}")
    for service in (o for o in objects if o["kind"] == "Service" and o["apiVersion"] == "v1"):
        for p in service["spec"]["ports"]:
            target = p.get("targetPort")
            if names.get(target, target) != ports[0]:
                fail(overlay, f"Service {service['metadata']['name']} targets {target}, not "
                              f"{ports[0]}")


def check_volumes(overlay, objects, pod, container):
    claims = {c["metadata"]["name"] for o in objects if o["kind"] == "StatefulSet"
              for c in o["spec"].get("volumeClaimTemplates", [])}
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {}
    for m in container.get("volumeMounts", []):
        name = m["name"]
        if name not in volumes and name not in claims:
            fail(overlay, f"mount {m['mountPath']} names no volume {name}")
        volume = volumes.get(name, {})
        for source in ("configMap", "secret"):
            if source in volume:
                wanted = volume[source].get("name") or volume[source].get("secretName")
                present = {o["metadata"]["name"] for o in objects
                           if o["kind"] == ("ConfigMap" if source == "configMap" else "Secret")}
                if source == "configMap" and wanted not in present:
                    fail(overlay, f"volume {name} mounts ConfigMap {wanted}, which is not rendered")
        mounts[m["mountPath"]] = m.get("readOnly", False) or "configMap" in volume
    args = container.get("args", [])
    for i, arg in enumerate(args[:-1]):
        mode = PATH_FLAGS.get(arg)
        if not mode:
            continue
        path = args[i + 1]
        holder = [p for p in mounts if path == p or path.startswith(p.rstrip("/") + "/")]
        if not holder:
            fail(overlay, f"{arg} {path} is not on a mounted volume (read-only root file system)")
        elif mode == "w" and mounts[holder[0]]:
            fail(overlay, f"{arg} {path} is written but its volume is read-only")


def check_security(overlay, pod, container):
    sc = container.get("securityContext", {})
    expected = {"runAsNonRoot": True, "allowPrivilegeEscalation": False,
                "readOnlyRootFilesystem": True}
    for key, value in expected.items():
        if sc.get(key) != value:
            fail(overlay, f"securityContext.{key} is {sc.get(key)}, not {value}")
    if sc.get("capabilities", {}).get("drop") != ["ALL"]:
        fail(overlay, "securityContext.capabilities does not drop ALL")
    if sc.get("runAsUser") in (None, 0):
        fail(overlay, "securityContext.runAsUser is root or unset")
    if pod.get("serviceAccountName") != "ganglion":
        fail(overlay, f"serviceAccountName is {pod.get('serviceAccountName')}, not ganglion")
    if "resources" not in container:
        fail(overlay, "the container has no resources")


def check_rbac(overlay, objects):
    accounts = {o["metadata"]["name"] for o in objects if o["kind"] == "ServiceAccount"}
    if "ganglion" not in accounts:
        fail(overlay, "no ServiceAccount ganglion")
    for role in (o for o in objects if o["kind"] in ("Role", "ClusterRole")):
        granted = {(group, resource, verb) for rule in role.get("rules", [])
                   for group in rule.get("apiGroups", []) for resource in rule.get("resources", [])
                   for verb in rule.get("verbs", [])}
        if granted != ROLE_RULES:
            fail(overlay, f"{role['kind']} {role['metadata']['name']} grants "
                          f"{sorted(granted - ROLE_RULES)} beyond and lacks "
                          f"{sorted(ROLE_RULES - granted)} of what cluster mode calls")
    for binding in (o for o in objects if o["kind"] == "RoleBinding"):
        for subject in binding.get("subjects", []):
            if subject["name"] not in accounts:
                fail(overlay, f"RoleBinding {binding['metadata']['name']} binds {subject['name']}, "
                              f"which is not rendered")


def check_scaling(overlay, objects, kind, work):
    for scaled in (o for o in objects if o["kind"] == "ScaledObject"):
        target = scaled["spec"]["scaleTargetRef"]["name"]
        if kind != "Deployment" or target != work["metadata"]["name"]:
            fail(overlay, f"ScaledObject {scaled['metadata']['name']} scales {target}, not the "
                          f"Deployment")
        for trigger in scaled["spec"]["triggers"]:
            meta = trigger["metadata"]
            if "activationLagThreshold" not in meta and "activationThreshold" not in meta:
                fail(overlay, f"the {trigger['type']} trigger has no activation threshold (0 ↔ 1)")
    if kind == "Deployment" and not any(o["kind"] == "PodDisruptionBudget" for o in objects):
        fail(overlay, "a Deployment of replicas without a PodDisruptionBudget")


def schemas_usable():
    """Whether the schema validator is installed, else why not."""
    if not SCHEMAS:
        return "no schema directory was given"
    if not shutil.which("node"):
        return "node is not installed"
    if not os.path.isdir(os.path.join(SCHEMAS, "node_modules", "kubernetes-models")):
        return f"{SCHEMAS}/node_modules has no kubernetes-models (make test installs it with npm)"
    return None


def check_schemas(overlay):
    """Every rendered object against the schema of its kind (tests/deploy/schema/validate.mjs)."""
    out = subprocess.run(["kubectl", "kustomize", os.path.join(OVERLAYS, overlay)],
                         capture_output=True, text=True, check=False)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(out.stdout)
    try:
        checked = subprocess.run(["node", os.path.join(SCHEMAS, "validate.mjs"), f.name],
                                 capture_output=True, text=True, check=False, cwd=SCHEMAS)
    finally:
        os.unlink(f.name)
    for line in checked.stdout.splitlines():
        if line.startswith("INVALID"):
            fail(overlay, f"schema: {line}")
    if checked.returncode != 0 and "INVALID" not in checked.stdout:
        fail(overlay, f"the schema validator failed: {checked.stderr.strip()}")


def check_manifests(overlay, objects):
    """The ConfigMap's manifests, as the container reads them, pass validate."""
    if not GANGLION:
        return
    for config in (o for o in objects if o["kind"] == "ConfigMap"):
        with tempfile.TemporaryDirectory() as folder:
            for name, text in config.get("data", {}).items():
                with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                    f.write(text)
            out = subprocess.run([GANGLION, "validate", "-f", folder, "--listen", "8080"],
                                 capture_output=True, text=True, check=False)
            if out.returncode != 0:
                fail(overlay, f"ganglion validate on ConfigMap {config['metadata']['name']}: "
                              f"{out.stderr.strip()}")


def main():
    quickstart = os.path.join(REPO, "examples", "quickstart")
    base = os.path.join(REPO, "deploy", "base", "manifests")
    for name in ("event-source.yaml", "sensor.yaml"):
        if not filecmp.cmp(os.path.join(quickstart, name), os.path.join(base, name), shallow=False):
            fail("base", f"manifests/{name} differs from examples/quickstart/{name}")
    if not shutil.which("kubectl"):
        print("kubectl is not installed: the overlays were not rendered (skipped)")
        return 77
    overlays = sorted(os.listdir(OVERLAYS))
    no_schemas = schemas_usable()
    if no_schemas:
        print(f"the objects were not checked against the Kubernetes schemas: {no_schemas}")
    for overlay in overlays:
        objects = render(overlay)
        if not objects:
            continue
        kind, work, pod = workload(objects)
        if not work:
            fail(overlay, "no Deployment, StatefulSet or Knative Service")
            continue
        container = pod["containers"][0]
        check_ports(overlay, objects, kind, pod, container)
        check_volumes(overlay, objects, pod, container)
        check_security(overlay, pod, container)
        check_rbac(overlay, objects)
        check_scaling(overlay, objects, kind, work)
        check_manifests(overlay, objects)
        if not no_schemas:
            check_schemas(overlay)
        print(f"{overlay}: {kind} and {len(objects) - 1} more objects checked")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
