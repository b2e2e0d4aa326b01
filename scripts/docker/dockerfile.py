"""Reads the project's Dockerfile into the facts the no-engine checks need (scripts/docker-rehearse,
scripts/docker-check-libs), refusing anything it does not understand.

The point is drift detection: the rehearsal runs what this parser extracts, so a Dockerfile step that
the rehearsal would silently skip must instead fail here. Every instruction, every RUN command (split
on `&&`) and every option is matched against the forms this file knows; anything else raises
DockerfileError naming the line. Dockerfile reference: https://docs.docker.com/reference/dockerfile/
"""
import json
import re
import shlex
from dataclasses import dataclass, field


class DockerfileError(Exception):
    pass


@dataclass
class Instruction:
    line: int
    keyword: str
    text: str  # arguments, continuation lines joined

    def fail(self, why):
        raise DockerfileError(f"Dockerfile line {self.line}: {self.keyword} {self.text[:80]!r}: {why}")


@dataclass
class Command:
    """One `&&`-separated command of a RUN instruction."""
    line: int
    argv: list
    raw: str


@dataclass
class BuildStep:
    kind: str  # "copy" (src, dst) or "run" (Command)
    line: int
    src: str = ""
    dst: str = ""
    command: Command = None


@dataclass
class Stage:
    image: str
    name: str
    line: int
    apt_packages: list = field(default_factory=list)


@dataclass
class Image:
    build: Stage = None
    runtime: Stage = None
    workdir: str = None
    build_steps: list = field(default_factory=list)  # in order: copies and commands
    copy_from_build: tuple = None  # (src in build stage, dst in runtime)
    groups: dict = field(default_factory=dict)  # name -> gid
    users: dict = field(default_factory=dict)  # name -> (uid, group name, home)
    runtime_dirs: list = field(default_factory=list)  # ("mkdir", path) / ("chown", "u:g", path) / ("chmod", mode, path)
    env: dict = field(default_factory=dict)
    volumes: list = field(default_factory=list)
    user: tuple = None  # (uid, gid) as ints
    expose: list = field(default_factory=list)
    stopsignal: str = None
    healthcheck: dict = None  # {"options": {...}, "cmd": [...]}
    entrypoint: list = None
    cmd: list = None
    labels: dict = field(default_factory=dict)
    args: dict = field(default_factory=dict)


def logical_lines(text):
    """(line number, keyword, arguments) per instruction: continuations joined, comments dropped."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        start = i + 1
        i += 1
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [raw]
        while parts[-1].rstrip().endswith("\\"):
            parts[-1] = parts[-1].rstrip()[:-1]
            # Comment lines inside a continuation are removed (Dockerfile reference, "Format").
            while i < len(lines) and lines[i].lstrip().startswith("#"):
                i += 1
            if i >= len(lines):
                raise DockerfileError(f"Dockerfile line {start}: continuation at end of file")
            parts.append(lines[i])
            i += 1
        joined = " ".join(p.strip() for p in parts)
        m = re.match(r"([A-Za-z]+)\s*(.*)$", joined)
        if not m:
            raise DockerfileError(f"Dockerfile line {start}: not an instruction: {joined[:60]!r}")
        out.append(Instruction(start, m.group(1).upper(), m.group(2).strip()))
    return out


def exec_form(ins, text=None):
    """A JSON array of strings (exec form); shell form is refused: it would run under /bin/sh -c,
    which neither forwards STOPSIGNAL to sigil nor exists in the same form outside the image."""
    text = ins.text if text is None else text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        ins.fail("only the exec (JSON array) form is understood")
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        ins.fail("expected a non-empty JSON array of strings")
    return value


def split_commands(ins):
    """The `&&`-separated commands of a RUN (no `;`, `|`, `||`, redirections or subshells except
    `$(…)` inside double quotes, which the build step uses for --show-bin-path)."""
    text = ins.text
    if re.search(r"(^|[^&])(;|\|\||\||>|<)", re.sub(r'"[^"]*"', '""', text)):
        ins.fail("only commands joined with && are understood")
    commands = []
    for raw in re.split(r"\s&&\s", text):
        raw = raw.strip()
        try:
            argv = shlex.split(raw)
        except ValueError as e:
            ins.fail(f"cannot split {raw!r}: {e}")
        if not argv:
            ins.fail("empty command")
        commands.append(Command(ins.line, argv, raw))
    return commands


def options(ins, argv, allowed):
    """`--name=value` options in front of the arguments, restricted to `allowed`."""
    found = {}
    while argv and argv[0].startswith("--"):
        name, _, value = argv[0][2:].partition("=")
        if name not in allowed:
            ins.fail(f"option --{name} is not understood")
        found[name] = value
        argv = argv[1:]
    return found, argv


def substitute(ins, value, args):
    def repl(m):
        name = m.group(1) or m.group(2)
        if name not in args:
            ins.fail(f"${name} is not a declared ARG")
        return args[name]
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", repl, value)


def key_values(ins, text, args):
    """`k=v k2="v 2"` (LABEL, ENV)."""
    try:
        tokens = shlex.split(text)
    except ValueError as e:
        ins.fail(str(e))
    pairs = {}
    for token in tokens:
        if "=" not in token:
            ins.fail(f"expected key=value, got {token!r}")
        k, _, v = token.partition("=")
        pairs[k] = substitute(ins, v, args)
    return pairs


APT_UPDATE = ["apt-get", "update"]
APT_INSTALL = ["apt-get", "install", "-y", "--no-install-recommends"]
APT_CLEAN = ["rm", "-rf", "/var/lib/apt/lists/*"]


def apt_command(cmd, stage):
    """True when `cmd` is one of the apt steps (recording the package list)."""
    if cmd.argv == APT_UPDATE or cmd.argv == APT_CLEAN:
        return True
    if cmd.argv[: len(APT_INSTALL)] == APT_INSTALL:
        packages = cmd.argv[len(APT_INSTALL):]
        if not packages or any(not re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", p) for p in packages):
            raise DockerfileError(f"Dockerfile line {cmd.line}: apt-get install: unexpected {packages}")
        stage.apt_packages.extend(packages)
        return True
    return False


def build_command(cmd):
    """Build-stage commands the rehearsal runs (with /src and /out mapped)."""
    a = cmd.argv
    if a[:3] == ["swift", "package", "resolve"] and len(a) == 3:
        return True
    if a[:2] == ["swift", "build"]:
        return all(x in ("-c", "release", "--product", "sigil", "--static-swift-stdlib") for x in a[2:])
    if a[0] == "install" and len(a) == 6 and a[1:4] == ["-D", "-m", a[3]] and re.fullmatch(r"0[0-7]{3}", a[3]):
        return True
    if a[:2] == ["mkdir", "-p"] and len(a) == 3:
        return True
    if a[:2] == ["cp", "-R"] and len(a) == 4:
        return True
    return False


def runtime_command(cmd, image):
    """Runtime-stage commands: the user and the data directory (recorded, applied to the staged root)."""
    a = cmd.argv
    if a[:4] == ["groupadd", "--system", "--gid", a[3] if len(a) > 3 else ""] and len(a) == 5:
        image.groups[a[4]] = int(a[3])
        return True
    if a[:2] == ["useradd", "--system"]:
        opts = {}
        rest = a[2:]
        flags = {"--no-create-home"}
        while rest and rest[0].startswith("--"):
            if rest[0] in flags:
                opts[rest[0]] = True
                rest = rest[1:]
            elif rest[0] in ("--uid", "--gid", "--home-dir", "--shell") and len(rest) > 1:
                opts[rest[0]] = rest[1]
                rest = rest[2:]
            else:
                raise DockerfileError(f"Dockerfile line {cmd.line}: useradd option {rest[0]} not understood")
        if len(rest) != 1 or "--uid" not in opts or "--gid" not in opts:
            raise DockerfileError(f"Dockerfile line {cmd.line}: useradd needs --uid, --gid and one name")
        image.users[rest[0]] = (int(opts["--uid"]), opts["--gid"], opts.get("--home-dir"))
        return True
    if a[:2] == ["mkdir", "-p"] and len(a) == 3:
        image.runtime_dirs.append(("mkdir", a[2]))
        return True
    if a[0] == "chown" and len(a) == 3 and re.fullmatch(r"\d+:\d+", a[1]):
        image.runtime_dirs.append(("chown", a[1], a[2]))
        return True
    if a[0] == "chmod" and len(a) == 3 and re.fullmatch(r"0[0-7]{3}", a[1]):
        image.runtime_dirs.append(("chmod", a[1], a[2]))
        return True
    return False


def parse(path):
    with open(path) as f:
        text = f.read()
    image = Image()
    stage = None
    for ins in logical_lines(text):
        k = ins.keyword
        if k == "FROM":
            m = re.fullmatch(r"(\S+)\s+AS\s+(\S+)", ins.text, re.IGNORECASE)
            if not m:
                ins.fail("expected FROM <image> AS <name>")
            stage = Stage(m.group(1), m.group(2), ins.line)
            if image.build is None:
                image.build = stage
            elif image.runtime is None:
                image.runtime = stage
            else:
                ins.fail("only two stages (build, runtime) are understood")
            continue
        if stage is None:
            ins.fail("instruction before FROM")
        building = stage is image.build
        if k == "RUN":
            if ins.text.startswith("--"):
                ins.fail("RUN options are not understood")
            for cmd in split_commands(ins):
                if apt_command(cmd, stage):
                    continue
                if building and build_command(cmd):
                    image.build_steps.append(BuildStep("run", cmd.line, command=cmd))
                elif not building and runtime_command(cmd, image):
                    pass
                else:
                    ins.fail(f"command not understood by the rehearsal: {cmd.raw!r}")
        elif k == "WORKDIR" and building:
            if image.workdir or not ins.text.startswith("/"):
                ins.fail("one absolute WORKDIR in the build stage is understood")
            image.workdir = ins.text
        elif k == "COPY" and building:
            parts = ins.text.split()
            if len(parts) != 2 or parts[0].startswith("--") or parts[0].startswith("/"):
                ins.fail("expected COPY <context path> <destination>")
            image.build_steps.append(BuildStep("copy", ins.line, src=parts[0], dst=parts[1]))
        elif k == "COPY" and not building:
            m = re.fullmatch(r"--from=(\S+)\s+(\S+)\s+(\S+)", ins.text)
            if not m or m.group(1) != image.build.name or image.copy_from_build:
                ins.fail(f"expected one COPY --from={image.build.name} <src> <dst>")
            image.copy_from_build = (m.group(2), m.group(3))
        elif k == "ARG" and not building:
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(\S*)", ins.text)
            if not m:
                ins.fail("expected ARG NAME=default")
            image.args[m.group(1)] = m.group(2)
        elif k == "LABEL" and not building:
            image.labels.update(key_values(ins, ins.text, image.args))
        elif k == "ENV" and not building:
            image.env.update(key_values(ins, ins.text, {}))
        elif k == "VOLUME" and not building:
            image.volumes.extend(exec_form(ins))
        elif k == "USER" and not building:
            m = re.fullmatch(r"(\d+):(\d+)", ins.text)
            if not m:
                ins.fail("expected a numeric USER uid:gid")
            image.user = (int(m.group(1)), int(m.group(2)))
        elif k == "EXPOSE" and not building:
            for port in ins.text.split():
                if not re.fullmatch(r"\d+(/tcp)?", port):
                    ins.fail(f"port {port!r} not understood")
                image.expose.append(int(port.split("/")[0]))
        elif k == "STOPSIGNAL" and not building:
            if not re.fullmatch(r"SIG[A-Z]+", ins.text):
                ins.fail("expected a signal name such as SIGTERM")
            image.stopsignal = ins.text
        elif k == "HEALTHCHECK" and not building:
            m = re.fullmatch(r"((?:--\S+\s+)*)CMD\s+(\[.*\])", ins.text)
            if not m:
                ins.fail("expected HEALTHCHECK [--option=value …] CMD [exec form]")
            opts, rest = options(ins, m.group(1).split(), {"interval", "timeout", "start-period", "retries"})
            image.healthcheck = {"options": opts, "cmd": exec_form(ins, m.group(2))}
        elif k == "ENTRYPOINT" and not building:
            image.entrypoint = exec_form(ins)
        elif k == "CMD" and not building:
            image.cmd = exec_form(ins)
        else:
            ins.fail(f"{k} is not understood in the {stage.name} stage")
    check_complete(image)
    return image


def check_complete(image):
    missing = [name for name, value in [
        ("build stage", image.build), ("runtime stage", image.runtime), ("WORKDIR", image.workdir),
        ("COPY --from", image.copy_from_build), ("USER", image.user), ("VOLUME", image.volumes),
        ("EXPOSE", image.expose), ("STOPSIGNAL", image.stopsignal), ("HEALTHCHECK", image.healthcheck),
        ("ENTRYPOINT", image.entrypoint), ("CMD", image.cmd)] if not value]
    if missing:
        raise DockerfileError("Dockerfile lacks " + ", ".join(missing))


def parse_duration(text):
    """Docker durations as used in HEALTHCHECK options (`30s`, `1m30s`, `500ms`) in seconds."""
    total = 0.0
    pos = 0
    for m in re.finditer(r"(\d+(?:\.\d+)?)(ms|s|m|h)", text):
        if m.start() != pos:
            break
        total += float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)]
        pos = m.end()
    if pos != len(text) or not text:
        raise DockerfileError(f"duration {text!r} not understood")
    return total


def dockerignore_patterns(path):
    """The .dockerignore patterns (comments and blanks dropped)."""
    try:
        with open(path) as f:
            return [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
    except FileNotFoundError:
        return []


def ignored(relpath, patterns):
    """Whether the context path is excluded (Go filepath.Match per pattern, `**` any number of
    directories, `!` re-includes; the last matching pattern wins). A directory pattern also
    excludes everything below it."""
    result = False
    parts = relpath.split("/")
    for pattern in patterns:
        negate = pattern.startswith("!")
        p = pattern[1:] if negate else pattern
        p = p.strip("/")
        regex = "^" + "".join(
            "(?:.*/)?" if tok == "**/" else ".*" if tok == "**" else "[^/]*" if tok == "*" else
            "[^/]" if tok == "?" else re.escape(tok)
            for tok in re.findall(r"\*\*/|\*\*|\*|\?|[^*?]+", p)) + "$"
        for depth in range(1, len(parts) + 1):
            if re.match(regex, "/".join(parts[:depth])):
                result = not negate
                break
    return result
