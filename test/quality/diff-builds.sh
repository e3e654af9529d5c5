#!/bin/sh
# Differential check of two builds: runs `check --format json` of build A and build B on every
# trace and log file under test/fixtures and test/quality/cases (with the directory's
# declarations.yaml when it has one) and names each file whose output differs. For changes that
# must not change any finding (performance work): the two outputs must be byte-identical.
# Usage: sh test/quality/diff-builds.sh DIST_A DIST_B   (e.g. a copy of dist/ from before, and dist/)
# Never writes anything; exits 1 when some output differs. ~5 min on 2 cores.
set -u
A=$1
B=$2
n=0
d=0
for f in $(find test/fixtures test/quality/cases -name '*.json' ! -name 'expected*.json' ! -name 'package*.json' | sort); do
  dir=$(dirname "$f")
  if [ -f "$dir/declarations.yaml" ]; then
    ra=$(node "$A/cli/main.js" check "$f" --declarations "$dir/declarations.yaml" --format json 2>&1)
    rb=$(node "$B/cli/main.js" check "$f" --declarations "$dir/declarations.yaml" --format json 2>&1)
  else
    ra=$(node "$A/cli/main.js" check "$f" --format json 2>&1)
    rb=$(node "$B/cli/main.js" check "$f" --format json 2>&1)
  fi
  n=$((n + 1))
  if [ "$ra" != "$rb" ]; then
    d=$((d + 1))
    echo "differs: $f"
  fi
done
echo "checked $n files, $d differ"
[ "$d" -eq 0 ]
