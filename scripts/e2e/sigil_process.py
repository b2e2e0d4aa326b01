"""Starts `sigil serve` on free ports and reads the URLs it prints (shared by the e2e test and bench)."""
import re
import subprocess
import threading
import time


class SigilProcess:
    def __init__(self, binary, *extra, fixed_ports=False, dev=True):
        ports = [] if fixed_ports else ["--port", "0", "--ui-port", "0"]
        self.proc = subprocess.Popen(
            [binary, "serve", *(["--dev"] if dev else []), *ports, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.bridge_url = self.approval_url = None
        self.client_tokens = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("sigil serve exited early:\n" + self.proc.stderr.read())
            self.lines.append(line.rstrip("\n"))
            if m := re.match(r"Bridge URL:\s+(\S+)", line):
                self.bridge_url = m.group(1)
            elif m := re.match(r"Client token for (\S+): (\S+)", line):
                self.client_tokens[m.group(1)] = m.group(2)
            elif m := re.match(r"Approval URL:\s+(\S+)", line):
                self.approval_url = m.group(1)
            if self.bridge_url and self.approval_url and len(self.client_tokens) == extra_clients(extra):
                break
        if not (self.bridge_url and self.approval_url):
            raise RuntimeError("sigil serve did not print its URLs: " + "\n".join(self.lines))
        self.gateway = self.bridge_url.rsplit("/", 1)[0]
        self.ui = self.approval_url.split("/#")[0]
        self.token = self.approval_url.split("#token=")[1]
        # Drain output so the process never blocks on a full pipe.
        self.stdout_lines = []
        threading.Thread(target=self._drain, args=(self.proc.stdout, self.stdout_lines), daemon=True).start()
        self.stderr_lines = []
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.stderr_lines), daemon=True).start()

    def _drain(self, stream, sink=None):
        for line in stream:
            if sink is not None:
                sink.append(line)

    def wait_for_output(self, text, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.stdout_lines):
                return
            time.sleep(0.05)
        raise AssertionError(f"sigil never printed {text!r}: {self.stdout_lines[-10:]}")

    def answer(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def extra_clients(extra):
    return sum(1 for a in extra if a == "--client")
