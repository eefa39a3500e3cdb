import { statSync } from "node:fs";
import { CATALOG_CHECK_MS, catalogOf, hasCatalog } from "../agents/catalog.ts";
import { catalogRefusal } from "../agents/catalog-check.ts";
import type { Detection } from "../agents/detection.ts";
import type { Registry } from "../agents/registry.ts";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { ImageInput, ValidRequest } from "../contract/request.ts";
import type { Sandbox } from "../os/sandbox/choose.ts";
import { loadSkills, type Skill } from "../skills/catalog.ts";
import { loadImages } from "./images.ts";
import type { Env, RunOptions } from "./request.ts";

/** What the adapter cannot do for this request, refused before anything starts, in the order a user would fix it. */
export function checkRequest(adapter: Adapter, request: ValidRequest, registry: Registry, sandbox: Sandbox): void {
  checkEffort(adapter, request.effort);
  // On a target the directory is the target's: it is checked there, by the wrapper's `cd`.
  if (!request.on && !isDirectory(request.cwd))
    throw new OdError("INVALID_REQUEST", `Working directory does not exist: ${request.cwd}`, "Pass an existing directory with --cwd.");
  // A CLI without a flag of its own for the mode is held by the kernel alone: refused where there is none.
  const kernel = sandbox.kind === "landlock" || sandbox.kind === "seatbelt";
  const without = `the kernel sandbox cannot hold it here${sandbox.note ? ` (${sandbox.note.replace(/: only the CLI's own flags hold the mode$/, "")})` : ""}`;
  if (request.mode === "read-only" && !adapter.capabilities.readOnly && !kernel)
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} has no read-only mode of its own, and ${without}`,
      `Use --mode ${adapter.capabilities.edit ? "edit" : "full"}, pick an agent with a read-only mode, or run where Landlock is available (Linux 5.13+).`,
    );
  if (request.mode === "edit" && !adapter.capabilities.edit && !kernel)
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} cannot be held to edits by its own flags (headless, it runs every tool without asking), and ${without}`,
      "Use --mode full if that is what you want, pick another agent, or run where Landlock is available (Linux 5.13+).",
    );
  if (request.resume && !adapter.capabilities.resume)
    throw new OdError("INVALID_REQUEST", `${adapter.name} cannot resume a session through od`, "Start a new run without --resume.");
  checkPassThrough(adapter, request, registry);
}

/**
 * A model the agent's exhaustive catalog lacks: the cached catalog, or, when a run names a
 * model and none is cached, one fetched now (bounded, through the probe queue) and cached.
 */
export async function checkModel(adapter: Adapter, model: string | undefined, detection: Detection | undefined, env: Env): Promise<void> {
  if (!model || model === "default" || adapter.protocol.kind === "loop" || !hasCatalog(adapter)) return;
  const fields = await catalogOf(adapter, env, { detection, timeoutMs: CATALOG_CHECK_MS });
  const refusal = catalogRefusal(adapter, fields, model);
  if (refusal) throw refusal;
}

function checkEffort(adapter: Adapter, effort: string | undefined): void {
  if (effort === undefined || adapter.efforts.includes(effort)) return;
  throw new OdError(
    "MODEL_NOT_AVAILABLE",
    adapter.efforts.length ? `${adapter.name} has no effort "${effort}"` : `${adapter.name} has no effort setting`,
    adapter.efforts.length ? `Valid efforts: ${adapter.efforts.join(", ")}.` : "Run without --effort.",
  );
}

/** --allowed-tools and --max-turns go only to CLIs that take them, and pre-approved tools never to a read-only run. */
function checkPassThrough(adapter: Adapter, request: ValidRequest, registry: Registry): void {
  const others = (cap: "allowedTools" | "maxTurns") =>
    registry
      .list()
      .filter((e) => e.adapter.capabilities[cap])
      .map((e) => e.adapter.id)
      .join(", ") || "none";
  if (request.allowedTools.length && !adapter.capabilities.allowedTools)
    throw new OdError("INVALID_REQUEST", `${adapter.name} takes no list of allowed tools`, `Agents that do: ${others("allowedTools")}.`);
  if (request.allowedTools.length && request.mode === "read-only")
    throw new OdError(
      "INVALID_REQUEST",
      "Pre-approved tools would give a read-only run more than it may do",
      "Use --mode edit, or drop --allowed-tools.",
    );
  if (request.maxTurns !== undefined && !adapter.capabilities.maxTurns)
    throw new OdError("INVALID_REQUEST", `${adapter.name} takes no turn limit`, `Agents that do: ${others("maxTurns")}.`);
}

/** Images only where the adapter sends them natively; never silently dropped. */
export function checkImages(adapter: Adapter, request: ValidRequest, registry: Registry): ImageInput[] {
  if (!request.images.length) return [];
  if (!adapter.capabilities.images) {
    const takers = registry
      .list()
      .filter((e) => e.adapter.capabilities.images)
      .map((e) => e.adapter.id);
    throw new OdError(
      "INVALID_REQUEST",
      `${adapter.name} cannot take images through od`,
      takers.length ? `Agents that accept images: ${takers.join(", ")}.` : "No installed adapter accepts images.",
    );
  }
  return loadImages(request.images, request.cwd);
}

/** The named skills from the catalog the surface gave (loaded only when a request names one). */
export async function resolveSkills(names: string[], opts: Pick<RunOptions, "skills" | "env">, env: Env): Promise<Skill[]> {
  if (!names.length) return [];
  const catalog = typeof opts.skills === "function" ? await opts.skills() : (opts.skills ?? (await loadSkills([], env)));
  const unknown = names.filter((s) => !catalog.skills.has(s));
  if (unknown.length)
    throw new OdError(
      "INVALID_REQUEST",
      `Unknown skill${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
      `Available: ${[...catalog.skills.keys()].join(", ") || "none"} (see \`od skills\`)${opts.skills ? "" : "; the bundled skills come with skills: () => loadSkills() from od"}.`,
    );
  return names.map((s) => catalog.skills.get(s)!);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
