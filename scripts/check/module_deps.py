#!/usr/bin/env python3
"""Every module imports only what Package.swift declares for it (issue 22: dependencies declared and
strictly downward). Reads `swift package dump-package` (JSON on stdin) and the `import` lines of each
target's sources; prints each target that imports a target of this package it does not declare, and
fails then. An undeclared import builds today only because another dependency brings the module in,
and SwiftPM's incremental build does not rebuild such a target when that module changes (a clone
that pulled a change to Primitives failed to link MetadataHash until it was declared)."""
import json
import os
import re
import sys

IMPORT = re.compile(
    r"\s*(?:@[\w()]+\s+)*(?:(?:private|fileprivate|internal|package|public)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)")


def declared(target):
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def main():
    root = sys.argv[1]
    package = json.load(sys.stdin)
    targets = {t["name"]: t for t in package["targets"]}
    problems = 0
    checked = 0
    for name, target in sorted(targets.items()):
        path = target.get("path") or (("Tests/" if target["type"] == "test" else "Sources/") + name)
        path = os.path.join(root, path)
        if not os.path.isdir(path):
            continue
        imports = set()
        for folder, _, files in os.walk(path):
            for file in files:
                if file.endswith(".swift"):
                    with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as handle:
                        for line in handle:
                            match = IMPORT.match(line)
                            if match:
                                imports.add(match.group(1))
        missing = sorted(i for i in imports if i in targets and i != name and i not in declared(target))
        checked += 1
        if missing:
            problems += 1
            print(f"{name} imports {', '.join(missing)} without declaring it in Package.swift")
    if problems:
        sys.exit(1)
    print(f"module dependencies: {checked} targets import only what they declare")


if __name__ == "__main__":
    main()
