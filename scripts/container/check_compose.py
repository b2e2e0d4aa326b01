#!/usr/bin/env python3
"""Validates compose.yaml's structure (the fields it uses, with their types, per the Compose
Specification) and its agreement with the Dockerfile: the same command, health check, stop signal,
ports (published on 127.0.0.1; a host port other than the container's needs SIGIL_PUBLIC_URL /
SIGIL_PUBLIC_UI_URL naming it, as sigil's Host check needs), the volume at SIGIL_HOME and a secret
file at the path SIGIL_PASSWORD_FILE names. Needs PyYAML (.venv-test).

The Dockerfile's facts come from its runtime stage's literal instructions (CMD, EXPOSE, ENV,
HEALTHCHECK, STOPSIGNAL; `dockerfile_facts`), not from an interpreter: scripts/container-test
builds and runs the real image.

    check_compose.py [COMPOSE_FILE [DOCKERFILE]]
"""
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Compose Specification fields this file may use, with the type each must have.
TOP = {"name": str, "services": dict, "volumes": dict, "secrets": dict}
SERVICE = {
    "build": str, "image": str, "command": list, "ports": list, "volumes": list, "secrets": list,
    "healthcheck": dict, "stop_signal": str, "stop_grace_period": str, "restart": str, "read_only": bool,
    "tmpfs": list, "cap_drop": list, "security_opt": list, "environment": dict,
}
HEALTHCHECK = {"test": list, "interval": str, "timeout": str, "start_period": str, "retries": int}
RESTART = {"no", "always", "on-failure", "unless-stopped"}


class Invalid(Exception):
    pass


class Image:
    """What compose.yaml must agree with, read from the Dockerfile's last stage."""

    def __init__(self, cmd, expose, env, healthcheck, stopsignal):
        self.cmd, self.expose, self.env, self.healthcheck, self.stopsignal = cmd, expose, env, healthcheck, stopsignal


def dockerfile_facts(path):
    with open(path) as f:
        text = re.sub(r"\\\n", " ", f.read())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    if not stages:
        raise Invalid(f"{path}: no FROM")
    runtime = lines[stages[-1]:]

    def one(keyword):
        found = [line[len(keyword):].strip() for line in runtime if line.upper().startswith(keyword + " ")]
        if len(found) != 1:
            raise Invalid(f"{path}: expected one {keyword} in the runtime stage, found {len(found)}")
        return found[0]

    try:
        cmd = json.loads(one("CMD"))
        hc_words = one("HEALTHCHECK").split()
        cmd_at = hc_words.index("CMD")
        hc_cmd = json.loads(" ".join(hc_words[cmd_at + 1:]))
    except (ValueError, json.JSONDecodeError) as e:
        raise Invalid(f"{path}: CMD and HEALTHCHECK must be in JSON (exec) form: {e}") from None
    options = dict(w[2:].split("=", 1) for w in hc_words[:cmd_at] if w.startswith("--") and "=" in w)
    env = dict(pair.split("=", 1) for pair in one("ENV").split())
    expose = [int(p) for p in one("EXPOSE").split()]
    return Image(cmd, expose, env, {"cmd": hc_cmd, "options": options}, one("STOPSIGNAL"))


def parse_duration(text):
    m = re.fullmatch(r"(\d+)(ms|s|m|h)", str(text))
    if not m:
        raise Invalid(f"{text!r} is not a duration like 30s")
    return int(m.group(1)) * {"ms": 1, "s": 1000, "m": 60000, "h": 3600000}[m.group(2)]


def typed(mapping, allowed, where):
    if not isinstance(mapping, dict):
        raise Invalid(f"{where}: expected a mapping")
    for key, value in mapping.items():
        if key not in allowed:
            raise Invalid(f"{where}.{key}: not a field this check knows (add it with its type)")
        if not isinstance(value, allowed[key]) or (allowed[key] is int and isinstance(value, bool)):
            raise Invalid(f"{where}.{key}: expected {allowed[key].__name__}, got {type(value).__name__}")
        if allowed[key] is list and not all(isinstance(v, str) for v in value):
            raise Invalid(f"{where}.{key}: expected a list of strings")


def check(compose_path, dockerfile_path):
    with open(compose_path) as f:
        doc = yaml.safe_load(f)
    image = dockerfile_facts(dockerfile_path)
    typed(doc, TOP, "compose")
    services = doc.get("services") or {}
    if list(services) != ["sigil"]:
        raise Invalid(f"services: expected exactly 'sigil', got {list(services)}")
    s = services["sigil"]
    typed(s, SERVICE, "services.sigil")
    if s.get("build") != ".":
        raise Invalid("services.sigil.build: expected '.' (the Dockerfile next to compose.yaml)")
    if "command" in s and s["command"] != image.cmd:
        raise Invalid(f"services.sigil.command {s['command']} differs from the Dockerfile's CMD {image.cmd}")
    command = s.get("command", image.cmd)
    if command[:3] != ["serve", "--host", "0.0.0.0"]:
        raise Invalid("services.sigil.command: the gateway must listen on all interfaces in the container")

    published = []
    environment = s.get("environment", {})
    public = {
        "dapp": environment.get("SIGIL_PUBLIC_URL", ""),
        "ui": environment.get("SIGIL_PUBLIC_UI_URL", ""),
    }
    # The ports sigil serves in the container: the image's (EXPOSE), unless the environment moves them.
    dapp_default, ui_default = image.expose
    try:
        served = {
            "dapp": int(environment.get("SIGIL_PORT", dapp_default)),
            "ui": int(environment.get("SIGIL_UI_PORT", ui_default)),
        }
    except ValueError:
        raise Invalid("environment: SIGIL_PORT and SIGIL_UI_PORT must be numbers") from None
    for port in s.get("ports", []):
        m = re.fullmatch(r"127\.0\.0\.1:(\d+):(\d+)", port)
        if not m:
            raise Invalid(f"ports: {port!r}: publish as 127.0.0.1:HOST_PORT:CONTAINER_PORT (this machine only)")
        host_port, container_port = int(m.group(1)), int(m.group(2))
        which = [k for k, v in served.items() if v == container_port]
        if not which:
            raise Invalid(f"ports: {port!r}: sigil serves {served} in the container (EXPOSE, SIGIL_PORT/SIGIL_UI_PORT)")
        if host_port != container_port:
            # A remapped port: sigil's Host check accepts it only when declared (--public-url).
            variable = "SIGIL_PUBLIC_URL" if which[0] == "dapp" else "SIGIL_PUBLIC_UI_URL"
            urls = [u.strip().rstrip("/") for u in public[which[0]].split(",")]
            if f"http://127.0.0.1:{host_port}" not in urls:
                raise Invalid(f"ports: {port!r} remaps the port; set {variable}=http://127.0.0.1:{host_port} "
                              "(sigil's Host check refuses an undeclared published port)")
        published.append(container_port)
    if sorted(published) != sorted(served.values()):
        raise Invalid(f"ports {published} differ from the ports sigil serves in the container {served}")

    declared_volumes = doc.get("volumes") or {}
    home = image.env.get("SIGIL_HOME")
    mounts = {}
    for entry in s.get("volumes", []):
        name, _, target = entry.partition(":")
        if name not in declared_volumes:
            raise Invalid(f"services.sigil.volumes: {name!r} is not a named volume declared at the top")
        mounts[target] = name
    if home not in mounts:
        raise Invalid(f"no named volume at SIGIL_HOME={home}: accounts would die with the container")

    declared_secrets = doc.get("secrets") or {}
    for name in s.get("secrets", []):
        spec = declared_secrets.get(name)
        if not isinstance(spec, dict) or not isinstance(spec.get("file"), str) or set(spec) != {"file"}:
            raise Invalid(f"secrets.{name}: expected {{file: PATH}}")
    for key, value in environment.items():
        if not re.fullmatch(r"SIGIL_[A-Z_]+", key) or not isinstance(value, str):
            raise Invalid(f"environment.{key}: expected SIGIL_… variables with string values")
    if "--password-file" in command:
        raise Invalid("the password file belongs in SIGIL_PASSWORD_FILE, not the command (the image's CMD has none)")
    path = environment.get("SIGIL_PASSWORD_FILE")
    if path is None:
        raise Invalid("environment.SIGIL_PASSWORD_FILE: missing (the accounts could not be unlocked)")
    m = re.fullmatch(r"/run/secrets/([\w.-]+)", path)
    if not m or m.group(1) not in s.get("secrets", []):
        raise Invalid(f"SIGIL_PASSWORD_FILE={path}: not a secret of the service (/run/secrets/NAME)")

    hc = s.get("healthcheck")
    if hc is None:
        raise Invalid("services.sigil.healthcheck: missing")
    typed(hc, HEALTHCHECK, "services.sigil.healthcheck")
    if hc.get("test") != ["CMD"] + image.healthcheck["cmd"]:
        raise Invalid(f"healthcheck.test {hc.get('test')} differs from the Dockerfile's HEALTHCHECK CMD")
    for key, option in [("interval", "interval"), ("timeout", "timeout"), ("start_period", "start-period")]:
        if parse_duration(hc[key]) != parse_duration(image.healthcheck["options"][option]):
            raise Invalid(f"healthcheck.{key} {hc[key]} differs from the Dockerfile's --{option}")
    if str(hc.get("retries")) != image.healthcheck["options"]["retries"]:
        raise Invalid("healthcheck.retries differs from the Dockerfile's")
    if s.get("stop_signal", image.stopsignal) != image.stopsignal:
        raise Invalid("stop_signal differs from the Dockerfile's STOPSIGNAL")
    if "stop_grace_period" in s:
        parse_duration(s["stop_grace_period"])
    if s.get("restart", "no") not in RESTART:
        raise Invalid(f"restart: {s['restart']!r} is not one of {sorted(RESTART)}")
    return s


if __name__ == "__main__":
    compose = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "compose.yaml")
    docker = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "Dockerfile")
    try:
        check(compose, docker)
    except (Invalid, OSError, yaml.YAMLError) as e:
        print(f"check_compose: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"check_compose: ok: {os.path.relpath(compose, ROOT)} agrees with the Dockerfile")
