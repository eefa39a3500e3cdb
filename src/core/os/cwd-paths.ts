import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * Where a path an agent names lies, relative to its working directory: inside it, and inside its
 * `.git`. Links of the path's existing part are followed, so a link in cwd that points out counts
 * as outside. A link that leads nowhere (its target not there yet, a loop) cannot be placed: a
 * write through it creates its target wherever it points, so it counts as outside and as `.git`
 * (fail closed). od's permission policy, its skills and `od init` decide by these.
 */

/** `path` (relative to cwd, or absolute) is cwd or beneath it, its links followed where they exist. */
export function inside(cwd: string, path: string): boolean {
  const base = real(resolve(cwd));
  const target = real(resolve(cwd, path));
  if (base === undefined || target === undefined) return false;
  const rel = relative(base, target);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * A path inside a `.git` folder under cwd. That is the repository's metadata,
 * not project files: its config names commands git runs (hooks, filters, diff
 * drivers), and od runs git there after the agent. Edit mode does not write it.
 */
export function inGitMetadata(cwd: string, path: string): boolean {
  const base = real(resolve(cwd));
  const target = real(resolve(cwd, path));
  if (base === undefined || target === undefined) return true;
  return relative(base, target)
    .split(/[\\/]/)
    .some((part) => part.toLowerCase() === ".git");
}

/**
 * The path with the links of its existing part resolved; undefined when that part is a link that
 * leads nowhere. "Existing" as lstat says: a dangling link is there, and is not looked past.
 */
function real(path: string): string | undefined {
  const rest: string[] = [];
  let cur = path;
  while (!present(cur) && dirname(cur) !== cur) {
    rest.unshift(basename(cur));
    cur = dirname(cur);
  }
  try {
    return join(realpathSync(cur), ...rest);
  } catch {
    return undefined;
  }
}

/** The path names something, a link to nothing included (existsSync follows links, and says no to one). */
export function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
