#!/usr/bin/env python3
"""Prints the `podman run` arguments (one per line) that compose.yaml's service `sigil` asks for,
for scripts/container-test, whose first runs start the image "by hand" the way `docker compose up`
would (podman-compose itself runs the file at the end of the test). Covered: command, environment, read_only, tmpfs, cap_drop, security_opt,
stop_signal. Not here, supplied by the test itself: ports (host network, free ports), the named
volume (a test volume) and the secret file (a test password at the same /run/secrets path).

    compose_run_args.py [COMPOSE_FILE] --options | --command
"""
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else os.path.join(ROOT, "compose.yaml")
    with open(path) as f:
        service = yaml.safe_load(f)["services"]["sigil"]
    if "--command" in sys.argv:
        for word in service.get("command", []):
            print(word)
        return
    out = []
    for key, value in (service.get("environment") or {}).items():
        out += ["-e", f"{key}={value}"]
    if service.get("read_only"):
        out.append("--read-only")
    for mount in service.get("tmpfs", []):
        out += ["--tmpfs", mount]
    for cap in service.get("cap_drop", []):
        out += ["--cap-drop", cap]
    for option in service.get("security_opt", []):
        out += ["--security-opt", option.replace(":true", "")]
    if "stop_signal" in service:
        out += ["--stop-signal", service["stop_signal"]]
    print("\n".join(out))


if __name__ == "__main__":
    main()
