"""The Python half of the test harness (docs/testing.md; the shell half is scripts/lib/harness.sh).

`SigilProcess` starts `sigil serve` on free ports and reads the URLs and tokens it prints; every
step and benchmark starts the server through it, never by hand. Whatever is started here is stopped
when the script ends: on return, on an exception, and on SIGTERM/SIGINT (scripts/test sends SIGTERM
to the step's process group on Ctrl-C), so that no server outlives its test.
"""
import atexit
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import traceback

_running = []


def _stop_all():
    # Nothing may interrupt this (a second SIGTERM or a Ctrl-C during it would orphan the servers).
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for process in list(_running):
        process.stop()


def _exit_on_signal(signum, frame):
    # Once: a second SIGTERM (a runner may signal a process and its job both) must not interrupt the
    # atexit handler while it stops the servers, which would orphan them.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Where the script was: a step stopped by its `timeout` (a hang) says what it was waiting for.
    print(f"stopped by signal {signum} at:\n" + "".join(traceback.format_stack(frame)[-8:]), file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)


atexit.register(_stop_all)
# SIGTERM's default action would end Python without running atexit; make it an exit instead.
if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
    signal.signal(signal.SIGTERM, _exit_on_signal)


class SigilProcess:
    def __init__(self, binary, *extra, fixed_ports=False, dev=True):
        ports = [] if fixed_ports else ["--port", "0", "--ui-port", "0"]
        self.proc = subprocess.Popen(
            [binary, "serve", *(["--dev"] if dev else []), *ports, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _running.append(self)
        self.lines = []
        self.bridge_url = self.approval_url = None
        self.client_tokens = {}
        # Output is read by threads from the start, so the wait for the URLs below has a deadline even
        # when the server prints nothing at all (a blocking readline would wait forever).
        self.stdout_lines = []
        self.stderr_lines = []
        startup = queue.Queue()
        self._lock = threading.Lock()
        self._started = False
        threading.Thread(target=self._pump, args=(startup,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.stderr_lines), daemon=True).start()
        deadline = time.monotonic() + 30
        while not (self.bridge_url and self.approval_url and len(self.client_tokens) == extra_clients(extra)):
            try:
                line = startup.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._fail("sigil serve did not print its URLs within 30 s")
            if line is None:
                self._fail("sigil serve exited early", wait=True)
            self.lines.append(line.rstrip("\n"))
            if m := re.match(r"Bridge URL:\s+(\S+)", line):
                self.bridge_url = m.group(1)
            elif m := re.match(r"Client token for (\S+): (\S+)", line):
                self.client_tokens[m.group(1)] = m.group(2)
            elif m := re.match(r"Approval URL:\s+(\S+)", line):
                self.approval_url = m.group(1)
        self.gateway = self.bridge_url.rsplit("/", 1)[0]
        self.ui = self.approval_url.split("/#")[0]
        self.token = self.approval_url.split("#token=")[1]
        with self._lock:
            self._started = True
            while not startup.empty():
                line = startup.get_nowait()
                if line is not None:
                    self.stdout_lines.append(line)

    def _pump(self, startup):
        # Until the URLs are read, lines go to the startup queue; after that to stdout_lines (what
        # wait_for_output reads), so the process never blocks on a full pipe. None marks the end.
        for line in self.proc.stdout:
            with self._lock:
                if self._started:
                    self.stdout_lines.append(line)
                else:
                    startup.put(line)
        startup.put(None)

    def _fail(self, what, wait=False):
        if wait:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.stop()
        time.sleep(0.1)  # the stderr thread reads what the stopped process wrote last
        raise RuntimeError(f"{what}:\nstdout: " + "\n".join(self.lines[-20:])
                           + "\nstderr: " + "".join(self.stderr_lines[-40:]))

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
        if self in _running:
            _running.remove(self)
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def extra_clients(extra):
    return sum(1 for a in extra if a == "--client")
