"""What the interop scripts share: the tally of checks and disagreements, and the JSON-lines filter
(Sources/*Interop executables: one JSON request per line in, one answer per line out)."""
import json
import subprocess
import sys


class Tally:
    def __init__(self):
        self.failures = 0
        self.counts = {}


tally = Tally()


def fail(what):
    """Records a disagreement; more than 10 end the run (the first ones say enough)."""
    tally.failures += 1
    print("FAIL:", what, file=sys.stderr)
    if tally.failures > 10:
        sys.exit(1)


def count(kind):
    tally.counts[kind] = tally.counts.get(kind, 0) + 1


class Filter:
    def __init__(self, path):
        self.path = path
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **request):
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit(f"{self.path} exited")
        return json.loads(line)
