"""The Python client (Debian's python3-kubernetes) against the sandbox.

Usage: python_client_test.py MKQ. Starts `mkq sandbox up --crds ../shared/kueue/crds`
in a temporary directory, then lists, creates, patches, watches (bounded) and
deletes Kueue custom resources and a ConfigMap through the official client.
Exit 0 pass, 1 fail, 77 skipped (no kubernetes module, or no ../shared).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

try:
    import kubernetes
    from kubernetes import client, config, watch
    from kubernetes.client.rest import ApiException
except ImportError:
    print("SKIPPED: the Python kubernetes module is missing (apt install python3-kubernetes)")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CRDS = os.path.join(ROOT, "..", "shared", "kueue", "crds")
GROUP, VERSION = "kueue.x-k8s.io", "v1beta1"

failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print("PASS: " + name)
    else:
        failures += 1
        print("FAIL: " + name + (": " + str(detail) if detail else ""))


def run(mkq, *args):
    return subprocess.run([mkq, "sandbox", *args], capture_output=True, text=True, timeout=60)


def main():
    if len(sys.argv) != 2:
        print("usage: python_client_test.py MKQ")
        return 1
    mkq = sys.argv[1]
    if not os.path.isdir(CRDS):
        print("SKIPPED: " + CRDS + " not found")
        return 77
    print("python3-kubernetes " + kubernetes.__version__)
    tmp = tempfile.mkdtemp(prefix="mkq-sandbox-python.")
    sandbox = os.path.join(tmp, "sandbox")
    try:
        up = run(mkq, "up", "--dir", sandbox, "--clusters", "manager", "--crds", CRDS)
        if up.returncode != 0:
            print("FAIL: mkq sandbox up\n" + up.stdout + up.stderr)
            return 1
        print("PASS: mkq sandbox up")
        exercise(os.path.join(sandbox, "kubeconfig"))
    finally:
        run(mkq, "down", "--dir", sandbox)
        # The stopping server may still write state.json: retry until the directory is gone.
        for _ in range(20):
            shutil.rmtree(tmp, ignore_errors=True)
            if not os.path.exists(tmp):
                break
            time.sleep(0.1)
    print("python client test: %d failed" % failures)
    return 1 if failures else 0


def flavor(name, labels):
    return {"apiVersion": GROUP + "/" + VERSION, "kind": "ResourceFlavor",
            "metadata": {"name": name}, "spec": {"nodeLabels": labels}}


def exercise(kubeconfig):
    api_client = config.new_client_from_config(config_file=kubeconfig, context="manager")
    core = client.CoreV1Api(api_client)
    custom = client.CustomObjectsApi(api_client)

    namespaces = [n.metadata.name for n in core.list_namespace(_request_timeout=10).items]
    check("list namespaces", "default" in namespaces, namespaces)
    cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="settings"), data={"a": "1"})
    created = core.create_namespaced_config_map("default", cm, _request_timeout=10)
    check("create a ConfigMap", created.metadata.uid and created.data == {"a": "1"}, created)

    # list, create, get, patch a custom resource.
    listed = custom.list_cluster_custom_object(GROUP, VERSION, "resourceflavors", _request_timeout=10)
    check("list ResourceFlavors (empty)", listed.get("items") == [], listed)
    created = custom.create_cluster_custom_object(GROUP, VERSION, "resourceflavors",
                                                  flavor("gpu", {"gpu": "a100"}), _request_timeout=10)
    check("create a ResourceFlavor", created["metadata"].get("uid") and created["metadata"].get("generation") == 1,
          created)
    got = custom.get_cluster_custom_object(GROUP, VERSION, "resourceflavors", "gpu", _request_timeout=10)
    check("get it back", got["spec"]["nodeLabels"] == {"gpu": "a100"}, got)
    patched = custom.patch_cluster_custom_object(GROUP, VERSION, "resourceflavors", "gpu",
                                                 {"spec": {"nodeLabels": {"zone": "z1"}}}, _request_timeout=10)
    check("merge-patch it", patched["spec"]["nodeLabels"] == {"gpu": "a100", "zone": "z1"}
          and patched["metadata"]["generation"] == 2, patched)
    lq = {"apiVersion": GROUP + "/" + VERSION, "kind": "LocalQueue",
          "metadata": {"name": "user-queue"}, "spec": {"clusterQueue": "cq"}}
    created = custom.create_namespaced_custom_object(GROUP, VERSION, "default", "localqueues", lq,
                                                     _request_timeout=10)
    check("create a namespaced LocalQueue", created["metadata"].get("namespace") == "default", created)

    # An invalid object: 422 with the field path.
    try:
        custom.create_cluster_custom_object(GROUP, VERSION, "clusterqueues",
                                            {"apiVersion": GROUP + "/" + VERSION, "kind": "ClusterQueue",
                                             "metadata": {"name": "bad"}, "spec": {"queueingStrategy": "Sideways"}},
                                            _request_timeout=10)
        check("an invalid ClusterQueue is refused", False, "created")
    except ApiException as e:
        check("an invalid ClusterQueue is refused with 422 and the field path",
              e.status == 422 and "spec.queueingStrategy" in e.body, (e.status, e.body))

    # watch, bounded: from the list's resourceVersion, a flavor created afterwards arrives.
    rv = custom.list_cluster_custom_object(GROUP, VERSION, "resourceflavors",
                                           _request_timeout=10)["metadata"]["resourceVersion"]
    events = []
    errors = []

    def watcher():
        try:
            stream_events()
        except Exception as e:  # reported by the check below
            errors.append(repr(e))

    def stream_events():
        w = watch.Watch()
        for event in w.stream(custom.list_cluster_custom_object, GROUP, VERSION, "resourceflavors",
                              resource_version=rv, timeout_seconds=10, _request_timeout=15):
            events.append((event["type"], event["object"]["metadata"]["name"]))
            if event["object"]["metadata"]["name"] == "cpu":
                w.stop()

    thread = threading.Thread(target=watcher, daemon=True)
    thread.start()
    custom.create_cluster_custom_object(GROUP, VERSION, "resourceflavors", flavor("cpu", {"cpu": "x86"}),
                                        _request_timeout=10)
    thread.join(timeout=15)
    check("watch sees the new ResourceFlavor", ("ADDED", "cpu") in events, (events, errors))

    # delete
    custom.delete_cluster_custom_object(GROUP, VERSION, "resourceflavors", "cpu", _request_timeout=10)
    try:
        custom.get_cluster_custom_object(GROUP, VERSION, "resourceflavors", "cpu", _request_timeout=10)
        gone = False
    except ApiException as e:
        gone = e.status == 404
    # A ResourceFlavor may keep a finalizer (resource-in-use) while it terminates.
    if not gone:
        obj = custom.get_cluster_custom_object(GROUP, VERSION, "resourceflavors", "cpu", _request_timeout=10)
        gone = bool(obj["metadata"].get("deletionTimestamp"))
    check("delete a ResourceFlavor", gone)


if __name__ == "__main__":
    sys.exit(main())
