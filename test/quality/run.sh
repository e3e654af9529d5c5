#!/bin/sh
# Runs a TypeScript entry of test/quality (quality.ts, or build/generate.ts) on Node 20 without a
# TS loader: compiles it with the project's tsc into a temporary directory (node_modules linked in)
# and runs it from the package root. Installs nothing, writes only what the entry writes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
entry=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$root/node_modules/.bin/tsc" --outDir "$out" --rootDir "$root" --module NodeNext --moduleResolution NodeNext \
  --target ES2022 --lib ES2022 --types node --strict --noUncheckedIndexedAccess --skipLibCheck --resolveJsonModule \
  "$here/$entry"
echo '{"type":"module"}' > "$out/package.json"
ln -s "$root/node_modules" "$out/node_modules"
cd "$root"
node "$out/test/quality/$(echo "$entry" | sed 's/\.ts$/.js/')" "$@"
