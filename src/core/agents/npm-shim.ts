/**
 * npm's command shims: where a global install puts a launcher instead of a
 * symlink (Windows always: `<name>.cmd`, `<name>.ps1` and an extension-less
 * `sh` script; pnpm and cmd-shim on every system). Each names the package's
 * entry file relative to the shim's own folder (`%dp0%\…`, `%~dp0\…`,
 * `$basedir/…`), beside `node` itself. Pure, so it is tested on any host.
 */
import { posix, win32 } from "node:path";

/** Quoted paths relative to the shim's folder, in every shim style npm, cmd-shim and pnpm write. */
const RELATIVE = /"(?:%~?dp0%?|\$basedir)[\\/]([^"]+)"/g;
/** The node a shim prefers when it sits beside it (`node`, `node.exe`, PowerShell's `node$exe`). */
const NODE = /^node(\.exe|\$exe)?$/i;

/** The entry file a shim starts, relative to the shim's folder, with `/` separators; undefined when the text is no shim. */
export function shimTarget(text: string): string | undefined {
  for (const m of text.matchAll(RELATIVE)) {
    const rel = m[1]!.replaceAll("\\", "/");
    if (!NODE.test(posix.basename(rel))) return rel;
  }
  return undefined;
}

/** The absolute path of a shim's entry file, joined the way the shim's own system would. */
export function resolveShimTarget(shimPath: string, text: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const rel = shimTarget(text);
  if (!rel) return undefined;
  const path = platform === "win32" ? win32 : posix;
  return path.join(path.dirname(shimPath), rel);
}
