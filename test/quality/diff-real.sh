#!/bin/sh
# Differential check of two builds on the real runs: `check --format json --fail-on never` of
# build A and build B over all of a set's runs at once, for tau-airline (test/real-traces, with
# and without its careful declarations) and the AgentDojo dev set (read from
# FP_AGENTDOJO_DIR, else ../shared/real-traces/agentdojo-dev beside the checkout; skipped and
# said when absent), each in both trace forms; names each that differs. The companion of
# diff-builds.sh (tau-airline's copy here holds the app-spans form only) for changes that must not change any finding.
# Usage: sh test/quality/diff-real.sh DIST_A DIST_B   Writes only to a temporary directory; exits 1 when some output differs.
set -u
A=$1
B=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
AD=${FP_AGENTDOJO_DIR:-$here/../shared/real-traces/agentdojo-dev}
TAU=$here/test/real-traces/tau-airline
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
d=0
one() { # name dir [declarations]
  u=$out/u; rm -rf "$u"; mkdir -p "$u"
  for f in "$2"/*; do case "$f" in *.gz) gunzip -c "$f" > "$u/$(basename "$f" .gz)" ;; *.json) cp "$f" "$u/" ;; esac; done
  extra=""; [ $# -ge 3 ] && extra="--declarations $3"
  node "$A/cli/main.js" check "$u"/*.json --format json --fail-on never $extra > "$out/a.json" 2>&1
  node "$B/cli/main.js" check "$u"/*.json --format json --fail-on never $extra > "$out/b.json" 2>&1
  if cmp -s "$out/a.json" "$out/b.json"; then echo "identical: $1 ($(wc -c < "$out/a.json") bytes)"; else echo "differs: $1"; d=$((d + 1)); fi
}
for form in traces traces-llm-only; do
  if [ -d "$TAU/$form" ]; then
    one "tau-airline/$form" "$TAU/$form"
    one "tau-airline/$form/careful" "$TAU/$form" "$TAU/declarations.careful.yaml"
  else echo "skipped: tau-airline/$form (not in test/real-traces)"; fi
  if [ -d "$AD/$form" ]; then one "agentdojo-dev/$form" "$AD/$form"; else echo "skipped: agentdojo-dev/$form (not at $AD)"; fi
done
[ "$d" -eq 0 ]
