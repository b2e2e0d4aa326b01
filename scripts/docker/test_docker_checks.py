"""The no-engine Docker checks can fail: the Dockerfile parser refuses what the rehearsal would not
perform, and docker-check-libs catches a missing or an extra runtime package. Run by
scripts/test.d/60-docker.sh (pytest); SIGIL_STAGED_BINARY is the binary docker-rehearse built."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import dockerfile  # noqa: E402

with open(os.path.join(ROOT, "Dockerfile")) as f:
    ORIGINAL = f.read()


def variant(tmp_path, old, new):
    assert old in ORIGINAL, old
    path = tmp_path / "Dockerfile"
    path.write_text(ORIGINAL.replace(old, new, 1))
    return str(path)


def test_the_project_dockerfile_parses():
    image = dockerfile.parse(os.path.join(ROOT, "Dockerfile"))
    assert image.entrypoint == ["/usr/local/bin/sigil"]
    assert image.cmd[:3] == ["serve", "--host", "0.0.0.0"]
    assert image.user == (10001, 10001)


@pytest.mark.parametrize("old,new,message", [
    ("COPY public ./public", "ADD public ./public", "ADD is not understood"),
    ("RUN swift package resolve", "RUN swift package resolve && curl -fsSL https://example.invalid/x",
     "not understood by the rehearsal"),
    ("RUN swift package resolve", "RUN swift package resolve; true", "only commands joined with &&"),
    ("RUN swift package resolve", "RUN --mount=type=cache,target=/src/.build swift package resolve",
     "RUN options are not understood"),
    ("swift build -c release --product sigil --static-swift-stdlib",
     "swift build -c release --product sigil --static-swift-stdlib -Xswiftc -Ounchecked", "not understood"),
    ('CMD ["serve", "--host", "0.0.0.0"]', 'CMD serve --host 0.0.0.0', "exec (JSON array) form"),
    ("USER 10001:10001", "USER sigil", "numeric USER"),
    ("STOPSIGNAL SIGTERM", "STOPSIGNAL 15", "signal name"),
    ("STOPSIGNAL SIGTERM\n", "", "lacks STOPSIGNAL"),
    ("ENV SIGIL_HOME=/data SIGIL_HOST=0.0.0.0 SIGIL_TOKEN_OUTPUT=file\n",
     "ENV SIGIL_HOME=/data SIGIL_HOST=0.0.0.0 SIGIL_TOKEN_OUTPUT=file\nWORKDIR /data\n", "WORKDIR is not understood"),
    ("--interval=30s", "--interval=30s --start-interval=1s", "option --start-interval"),
    ("org.opencontainers.image.version=\"${VERSION}\"", "org.opencontainers.image.version=\"${NOPE}\"",
     "not a declared ARG"),
])
def test_the_parser_refuses_what_the_rehearsal_does_not_perform(tmp_path, old, new, message):
    with pytest.raises(dockerfile.DockerfileError, match=re.escape(message)):
        dockerfile.parse(variant(tmp_path, old, new))


@pytest.mark.parametrize("pattern,path,excluded", [
    (".build*", ".build/release/sigil", True),
    (".build*", "Sources/x.swift", False),
    ("**/.build*", "Benchmarks/Echo/.build/x", True),
    ("*.profraw", "default.profraw", True),
    ("*.profraw", "Sources/a.profraw", False),
])
def test_dockerignore_patterns_match_like_docker(pattern, path, excluded):
    assert dockerfile.ignored(path, [pattern]) is excluded


def test_the_project_context_keeps_what_the_build_copies():
    patterns = dockerfile.dockerignore_patterns(os.path.join(ROOT, ".dockerignore"))
    for path in ["Package.swift", "Sources/sigil/ServeCommand.swift", "Tests", "public/bridge.js"]:
        assert not dockerfile.ignored(path, patterns), path
    for path in [".build/release/sigil", ".git/HEAD", ".venv-test/bin/python", "Package.resolved"]:
        assert dockerfile.ignored(path, patterns), path


def check_libs(dockerfile_path):
    binary = os.environ.get("SIGIL_STAGED_BINARY")
    if not binary:
        pytest.fail("SIGIL_STAGED_BINARY is not set (scripts/test.d/60-docker.sh sets it)")
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "docker-check-libs"), binary,
                           dockerfile_path], capture_output=True, text=True)


def test_check_libs_passes_on_the_project_dockerfile():
    r = check_libs(os.path.join(ROOT, "Dockerfile"))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("old,new,message", [
    (" libsqlite3-0 \\", " \\", "not installed by the runtime stage"),
    ("libc6 libgcc-s1", "libc6 ca-certificates libgcc-s1", "does not link"),
    ("libssl3", "libssl3 libcurl4", "does not link"),
    ("pkg-config libsodium-dev", "pkg-config", "no build-stage -dev package"),
])
def test_check_libs_catches_a_missing_or_extra_package(tmp_path, old, new, message):
    r = check_libs(variant(tmp_path, old, new))
    assert r.returncode == 1
    assert message in r.stderr


def compose_variant(tmp_path, old, new):
    with open(os.path.join(ROOT, "compose.yaml")) as f:
        text = f.read()
    assert old in text, old
    path = tmp_path / "compose.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


def test_compose_agrees_with_the_dockerfile():
    import check_compose
    check_compose.check(os.path.join(ROOT, "compose.yaml"), os.path.join(ROOT, "Dockerfile"))


@pytest.mark.parametrize("old,new,message", [
    ('"127.0.0.1:9715:9715"', '"9715:9715"', "this machine only"),
    ('"127.0.0.1:9715:9715"', '"127.0.0.1:8080:9715"', "must be equal"),
    ('"127.0.0.1:9716:9716"', '"127.0.0.1:9717:9717"', "differ from the ports sigil serves"),
    ("- sigil-data:/data", "- sigil-data:/var/lib/sigil", "no named volume at SIGIL_HOME"),
    ('test: ["CMD", "/usr/local/bin/sigil", "health"]', 'test: ["CMD", "curl", "-f", "http://127.0.0.1:9716/"]',
     "differs from the Dockerfile's HEALTHCHECK"),
    ("timeout: 5s", "timeout: 50s", "differs from the Dockerfile's --timeout"),
    ("retries: 3", "retries: \"3\"", "expected int"),
    ("    secrets:\n      - sigil_password\n", "", "not a secret of the service"),
    ("restart: unless-stopped", "restart: sometimes", "not one of"),
    ("read_only: true", "read_only: true\n    privileged: true", "not a field this check knows"),
    ('"--host", "0.0.0.0"]', '"--host", "0.0.0.0", "--dev"]', "differs from the Dockerfile's CMD"),
    ("SIGIL_PASSWORD_FILE: /run/secrets/sigil_password", "SIGIL_PASSWORD_FILE: /data/password",
     "not a secret of the service"),
    ("      SIGIL_PASSWORD_FILE: /run/secrets/sigil_password", "      SIGIL_LOG_LEVEL: info", "missing"),
    ("SIGIL_PASSWORD_FILE: /run/secrets/sigil_password", "SIGIL_PASSWORD_FILE: /run/secrets/sigil_password\n      SIGIL_PORT: \"9800\"",
     "differ from the ports sigil serves"),
])
def test_compose_check_catches_drift(tmp_path, old, new, message):
    import check_compose
    with pytest.raises(check_compose.Invalid, match=re.escape(message)):
        check_compose.check(compose_variant(tmp_path, old, new), os.path.join(ROOT, "Dockerfile"))


def hadolint(path):
    binary = os.path.join(os.path.dirname(sys.executable), "hadolint")
    return subprocess.run([binary, "--no-color", "--config", os.path.join(ROOT, ".hadolint.yaml"), path],
                          capture_output=True, text=True)


def test_hadolint_passes_the_dockerfile():
    r = hadolint(os.path.join(ROOT, "Dockerfile"))
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("old,new,rule", [
    ("# hadolint ignore=DL3008\nRUN apt-get update", "RUN apt-get update", "DL3008"),
    ("FROM debian:bookworm-slim", "FROM quay.io/debian:bookworm-slim", "DL3026"),
    ('      org.opencontainers.image.revision="${REVISION}"', '      org.example.revision="${REVISION}"', "DL3049"),
    ("USER 10001:10001", "USER root", "DL3002"),
])
def test_hadolint_with_the_project_settings_fails_on_findings(tmp_path, old, new, rule):
    r = hadolint(variant(tmp_path, old, new))
    assert r.returncode == 1
    assert rule in r.stdout
