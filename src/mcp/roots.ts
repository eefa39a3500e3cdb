import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { OdError } from "../core/contract/errors.ts";
import { Mode } from "../core/contract/events.ts";

/**
 * What a caller of `od mcp` may ask of an agent: at most `maxMode`, and only in a working directory
 * under one of `roots` (real paths, symlinks resolved). Another agent calls these tools, so the
 * defaults are narrow: read-only, in the folder od was started in.
 */
export interface McpPolicy {
  maxMode: Mode;
  roots: string[];
}

/** The modes from least to most authority. */
export const MODES: readonly Mode[] = Mode.options;

/** Whether `mode` gives no more authority than `max`. */
export function within(mode: Mode, max: Mode): boolean {
  return MODES.indexOf(mode) <= MODES.indexOf(max);
}

/** The mode a run gets: the one asked for (default read-only), refused when it is above the server's maximum. */
export function checkMode(asked: string | undefined, max: Mode): Mode {
  const parsed = Mode.safeParse(asked ?? "read-only");
  if (!parsed.success)
    throw new OdError("INVALID_REQUEST", `mode must be one of ${MODES.join(", ")}, not "${asked}"`, "Leave it out for read-only.");
  if (!within(parsed.data, max))
    throw new OdError(
      "FORBIDDEN",
      `mode "${parsed.data}" is above this server's maximum, "${max}"`,
      `Ask for ${MODES.filter((m) => within(m, max)).join(" or ")}; a wider mode needs the server started with --max-mode ${parsed.data}.`,
    );
  return parsed.data;
}

/** Whether the real path `dir` is `root` or inside it. */
export function isUnder(dir: string, root: string): boolean {
  const rel = relative(root, dir);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** What checkCwd asks of the file system (tests give a table instead). */
export interface PathFacts {
  /** The path with every symlink resolved; throws when it does not exist. */
  realpath(path: string): string;
  isDirectory(path: string): boolean;
}

const DISK: PathFacts = { realpath: (p) => realpathSync(p), isDirectory: (p) => statSync(p).isDirectory() };

/**
 * The working directory a run gets: `asked` (relative to the first root; default the first root)
 * with its symlinks resolved, which must be an existing folder under one of `roots`.
 */
export function checkCwd(asked: string | undefined, roots: string[], fs: PathFacts = DISK): string {
  const first = roots[0];
  if (!first) throw new OdError("FORBIDDEN", "This server has no roots, so no working directory is allowed", "Start it with --root <dir>.");
  const wanted = resolve(first, asked ?? ".");
  let real: string;
  try {
    real = fs.realpath(wanted);
  } catch {
    throw new OdError("INVALID_REQUEST", `cwd does not exist: ${wanted}`, `Give a folder under ${roots.join(" or ")}.`);
  }
  if (!roots.some((root) => isUnder(real, root)))
    throw new OdError(
      "FORBIDDEN",
      `cwd ${wanted}${real !== wanted ? ` (really ${real})` : ""} is outside this server's roots`,
      `Give a folder under ${roots.join(" or ")}; others need the server started with --root <dir>.`,
    );
  if (!fs.isDirectory(real)) throw new OdError("INVALID_REQUEST", `cwd is not a folder: ${wanted}`);
  return real;
}

/**
 * The working directory the agent gets as it starts (createRun's `resolveCwd`): `cwd`, which checkCwd
 * passed when run_agent was called, checked again now that the run holds its slot, symlinks resolved
 * anew. A folder swapped meanwhile for a link out of the roots (or removed) is refused, saying when.
 */
export function cwdAtLaunch(cwd: string, roots: string[], fs: PathFacts = DISK): string {
  try {
    return checkCwd(cwd, roots, fs);
  } catch (err) {
    const e = OdError.from(err);
    throw new OdError(e.code, `${e.message}, as the agent was about to start (it changed after run_agent was called)`, e.hint);
  }
}

/** The roots given at start (default: here), as real paths of existing folders; a bad one stops the server before it starts. */
export function resolveRoots(given: string[], here: string = process.cwd()): string[] {
  const roots: string[] = [];
  for (const root of given.length ? given : [here]) {
    let real: string;
    try {
      real = realpathSync(resolve(here, root));
    } catch {
      throw new OdError("INVALID_REQUEST", `--root ${root} does not exist`, "Give existing folders with --root.");
    }
    if (!statSync(real).isDirectory()) throw new OdError("INVALID_REQUEST", `--root ${root} is not a folder`);
    if (!roots.includes(real)) roots.push(real);
  }
  return roots;
}

/** Parses --max-mode: one of the modes (default read-only). */
export function parseMaxMode(text: string | undefined): Mode {
  const parsed = Mode.safeParse(text ?? "read-only");
  if (!parsed.success) throw new OdError("INVALID_REQUEST", `--max-mode must be one of ${MODES.join(", ")}, not "${text}"`);
  return parsed.data;
}
