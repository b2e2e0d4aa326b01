# shellcheck shell=bash
# Sourced by scripts/bench-sign-compare and scripts/bench-sign-pair: the baseline commit's release
# `sigil`, built once from `git archive` into .build/bench-baseline/<short>/ and kept.
#   baseline_binary COMMIT   → sets base_short and base_bin (builds when missing)
baseline_binary() {
    local commit
    commit=$(git -C "$root" rev-parse --verify "$1^{commit}")
    base_short=${commit:0:7}
    local dir="$root/.build/bench-baseline/$base_short"
    base_bin="$dir/.build/release/sigil"
    if [ ! -x "$base_bin" ]; then
        echo "building the baseline $base_short (release; once, kept in $dir)…" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        git -C "$root" archive "$commit" | tar -x -C "$dir"
        (cd "$dir" && swift build -c release --product sigil >&2)
    fi
}
