import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute } from "node:path";
import { type Adapter, binOverrideVar } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { userToolDirs } from "./paths.ts";
import { whichWindows } from "./windows-path.ts";

export interface Resolved {
  path: string;
  /** override: <ID>_BIN; path: on PATH; tool-dir: in a usual install folder that PATH lacks. */
  via: "override" | "path" | "tool-dir";
}

/**
 * The adapter's executable: the `<ID>_BIN` override (absolute, existing,
 * executable), else `bin` and its fallback names on PATH, else in the usual
 * user tool folders PATH may lack. Throws AGENT_NOT_FOUND with the install hint.
 */
export function resolveExecutable(adapter: Adapter, env: Env = process.env, toolPath?: string): Resolved {
  const found = findExecutable(adapter, env, toolPath);
  if (found) return found;
  throw notFound(adapter, env);
}

/**
 * Why resolveExecutable found nothing, as the error it throws. Built without a stack: detection
 * asks it of every adapter not installed (most of the 42), and a stack each was most of what a miss
 * cost; where it was thrown says nothing the message does not.
 */
function notFound(adapter: Adapter, env: Env = process.env): OdError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const overrideVar = binOverrideVar(adapter);
    const override = env[overrideVar];
    if (override)
      return new OdError(
        "AGENT_NOT_FOUND",
        `${overrideVar}=${override}: ${checkExecutable(override)}`,
        `Point ${overrideVar} at the absolute path of the ${adapter.name} executable, or unset it.`,
      );
    return new OdError(
      "AGENT_NOT_FOUND",
      `${adapter.name} is not installed: no \`${adapter.bin}\` on PATH`,
      `Install it with \`${adapter.install}\`, or set ${overrideVar} to its path.`,
    );
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The same executable, or undefined where resolveExecutable throws: for callers that only need to
 * know. `toolPath` is the user tool folders as a PATH (toolPath(env)), for a caller that looks up
 * many adapters: worked out once, not once per adapter.
 */
export function findExecutable(adapter: Adapter, env: Env = process.env, tools?: string): Resolved | undefined {
  const override = env[binOverrideVar(adapter)];
  if (override) return checkExecutable(override) ? undefined : { path: override, via: "override" };
  const names = [adapter.bin, ...adapter.fallbackBins];
  for (const name of names) {
    const found = findOnPath(name, env);
    if (found) return { path: found, via: "path" };
  }
  const PATH = tools ?? toolPath(env);
  if (!PATH) return undefined;
  for (const name of names) {
    const found = findOnPath(name, { ...env, PATH });
    if (found) return { path: found, via: "tool-dir" };
  }
  return undefined;
}

/** The usual user tool folders that exist, as a PATH: most of them do not on a given machine, and each costs every lookup a stat. */
export function toolPath(env: Env = process.env): string {
  return userToolDirs(env)
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .join(delimiter);
}

/** A bare name on PATH: through PATHEXT on Windows (`.COM .EXE .BAT .CMD`), Bun.which elsewhere. */
export function findOnPath(name: string, env: Env, platform: NodeJS.Platform = process.platform): string | undefined {
  return platform === "win32" ? whichWindows(name, env) : (Bun.which(name, { PATH: env.PATH ?? "" }) ?? undefined);
}

function checkExecutable(path: string): string | undefined {
  if (!isAbsolute(path)) return "not an absolute path";
  try {
    if (!statSync(path).isFile()) return "not a file";
    accessSync(path, constants.X_OK);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not executable";
  }
  return undefined;
}
