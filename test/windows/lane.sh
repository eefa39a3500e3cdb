#!/usr/bin/env bash
# The Wine lane (`npm run test:windows`): od's Windows build on Bun's real Windows
# runtime, under Debian's Wine, spawning a real .cmd shim and a real .exe.
#
#   1. installs what is missing from Debian (wine64, wine, gcc-mingw-w64-x86-64-win32);
#   2. builds the rawargs probe and a stand-in bcryptprimitives.dll with mingw (Wine 8.0
#      lacks the DLL; Bun imports only ProcessPrng from it; see wine-lab.md);
#   3. makes (once) a Wine prefix under the cache and puts the DLL in its system32;
#   4. fetches Bun's Windows runtime with `npm pack` (cached), then builds dist/od.exe
#      with the network cut off when `unshare -n` is allowed (proof the build is offline);
#   5. runs test/windows with OD_WINDOWS=1 (on $OD_EXE instead, when given: the pkg lane's
#      win32-x64 package, its `od --version` line expected in $OD_EXE_VERSION).
#
# Cache (prefix, probe, DLL): $OD_WINE_CACHE, else $XDG_CACHE_HOME/od/wine, else ~/.cache/od/wine.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
say() { printf '== wine lane: %s (%ss)\n' "$*" "$(($(date +%s) - started))" >&2; }

CACHE="${OD_WINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/od/wine}"
export WINEPREFIX="$CACHE/prefix" WINEDEBUG=-all WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY # console programs only: Wine must not look for a display

need=()
command -v wine >/dev/null || need+=(wine64 wine)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64-win32)
if ((${#need[@]})); then
  say "installing ${need[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

say "building the probe and the bcryptprimitives.dll stand-in"
mkdir -p "$CACHE/bin"
x86_64-w64-mingw32-gcc -municode -O2 -s -o "$CACHE/bin/rawargs.exe" test/windows/rawargs.c
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$CACHE/bin/bcryptprimitives.dll" test/windows/bcryptprimitives.c -ladvapi32

if [ ! -f "$WINEPREFIX/.od-ready" ]; then
  say "creating the Wine prefix"
  rm -rf "$WINEPREFIX"
  wineboot -i >/dev/null 2>&1 || true
  wineserver -w
  cp "$CACHE/bin/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
  wine winecfg -v win10 >/dev/null 2>&1 || true
  touch "$WINEPREFIX/.od-ready"
fi
cp -f "$CACHE/bin/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

# One wineserver for the whole lane (a warm Bun exe starts in about 0.1 s), stopped at the end.
# (A server still lingering from wineboot/winecfg refuses -p: wait for it to go, then start ours.)
wineserver -p 2>/dev/null || { wineserver -w && wineserver -p; }
trap 'wineserver -k 2>/dev/null || true' EXIT

# OD_EXE given (the pkg lane: the win32-x64 package's od.exe), that one is checked instead of a build.
exe="${OD_EXE:-}"
if [ -z "$exe" ]; then
  say "building dist/od.exe"
  bun=node_modules/.bin/bun
  "$bun" scripts/build-target.ts windows --fetch-only >/dev/null
  if unshare -n true 2>/dev/null; then
    unshare -n "$bun" scripts/build-target.ts windows
    say "dist/od.exe built with no network (unshare -n)"
  else
    "$bun" scripts/build-target.ts windows
    say "dist/od.exe built (unshare -n not allowed here, so offline is not proven on this run)"
  fi
  exe=dist/od.exe
fi

say "running test/windows"
status=0
# $OD_WINE_FILTER picks tests by name (the pkg lane's smoke checks); $OD_WINE_TIMEOUT (ms) is for a
# machine so loaded that one Wine start of od.exe takes longer than bun's default 5 s.
args=(--timeout "${OD_WINE_TIMEOUT:-5000}")
[ -z "${OD_WINE_FILTER:-}" ] || args+=(-t "$OD_WINE_FILTER")
OD_WINDOWS=1 OD_PROBE_EXE="$CACHE/bin/rawargs.exe" OD_EXE="$exe" node_modules/.bin/bun test "${args[@]}" test/windows || status=$?
say "done, exit $status"
exit "$status"
