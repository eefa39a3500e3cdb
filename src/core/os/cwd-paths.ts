import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * Where a path an agent names lies, relative to its working directory: inside it, and inside its
 * `.git`. Links of the path's existing part are followed, so a link in cwd that points out counts
 * as outside (od's permission policy and the api loop's tools decide by these).
 */

/** `path` (relative to cwd, or absolute) is cwd or beneath it, its links followed where they exist. */
export function inside(cwd: string, path: string): boolean {
  const rel = relative(real(resolve(cwd)), real(resolve(cwd, path)));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * A path inside a `.git` folder under cwd. That is the repository's metadata,
 * not project files: its config names commands git runs (hooks, filters, diff
 * drivers), and od runs git there after the agent. Edit mode does not write it.
 */
export function inGitMetadata(cwd: string, path: string): boolean {
  return relative(real(resolve(cwd)), real(resolve(cwd, path)))
    .split(/[\\/]/)
    .some((part) => part.toLowerCase() === ".git");
}

/** The path with symlinks of its existing part resolved, so a link inside cwd that points out counts as outside. */
function real(path: string): string {
  const rest: string[] = [];
  let cur = path;
  while (!existsSync(cur) && dirname(cur) !== cur) {
    rest.unshift(basename(cur));
    cur = dirname(cur);
  }
  try {
    return join(realpathSync(cur), ...rest);
  } catch {
    return path;
  }
}
