/**
 * An agent's model catalog as detection finds it, and how far it can be trusted.
 * The ids live in `Detection.models` (`modelSource: "catalog"`); `catalog` says
 * where they came from and whether they are everything the agent accepts. Only
 * an exhaustive catalog lets `od run` refuse a model before spawning
 * (catalog-check.ts); any other list is a hint and the model is passed on.
 *
 * Sources: the CLI's own catalog command (`detect.models`, probed by detect.ts)
 * and, for ACP agents, what `session/new` offers (probed here, never prompted).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Mode } from "../events.ts";
import type { Listed } from "../protocols/acp-models.ts";
import { probeAcpSession } from "../protocols/acp-probe.ts";
import type { Adapter } from "./adapter.ts";
import type { Detection } from "./detection.ts";

type Env = Record<string, string | undefined>;

/** The ACP probe's limit, from spawn to session/new's answer. */
export const ACP_PROBE_MS = 10_000;

export interface ModelCatalog {
  /** The list is everything the agent accepts: a model it does not match is refused before spawning. */
  exhaustive: boolean;
  /**
   * How a requested model is matched against the list: "exact" (an id, or an ACP model's
   * display name, as the ACP driver selects) or "pattern" (pi's `--model`: case-insensitive,
   * a part of an id, a `:thinking` suffix, any id under a listed provider).
   */
  match: "exact" | "pattern";
  /** Where the list came from, for people: "`pi --list-models`", "ACP session/new". */
  from: string;
  /** Display names by id, where they differ (ACP); a run may select a model by either. */
  names?: Record<string, string>;
  /** The session modes the agent offers (ACP), ids. */
  modes?: string[];
}

/** A Detection with its catalog's description (stored, and cached, with it). */
export type CatalogDetection = Detection & { catalog?: ModelCatalog };

/**
 * Catalog commands that list everything the CLI accepts, by adapter id and command
 * (a plugin replacing the adapter with another command is not trusted on this).
 * pi: `--list-models` lists every model of every provider pi has credentials for; a model of
 * any other provider fails for want of a key, and an unlisted id under a listed provider is
 * passed on (pi takes it as a custom id; see catalog-check.ts for how pi matches `--model`).
 * Others are hints: `codex debug models` hides models, `opencode models` leaves out what a
 * per-run config adds, `cursor-agent models`, `kimi provider list` and `copilot help config`
 * are not documented as complete.
 */
const EXHAUSTIVE: Record<string, { args: string; match: ModelCatalog["match"] }> = {
  pi: { args: "--list-models", match: "pattern" },
};

/** detect.ts's one call: the detection it made, with the catalog fields below added. */
export async function withModelCatalog(adapter: Adapter, d: Detection, env: Env): Promise<Detection> {
  return Object.assign(d, await modelCatalog(adapter, d, env));
}

/**
 * The catalog fields detection adds to a detection it has made: the description of
 * a catalog command's list, or an ACP agent's models (and modes) from `session/new`.
 * Skipped (nothing added) when the CLI is not installed or not logged in as far as
 * detection knows. Never throws.
 */
export async function modelCatalog(adapter: Adapter, d: Detection, env: Env): Promise<Partial<CatalogDetection>> {
  if (d.modelSource === "catalog" && adapter.detect.models) return { catalog: commandCatalog(adapter, adapter.detect.models.args) };
  if (adapter.protocol.kind !== "driver" || adapter.protocol.driver !== "acp") return {};
  if (!d.installed || !d.path || d.auth === "missing") return {};
  try {
    return fromOffer(await acpOffer(adapter, d.path, d.flags, env));
  } catch {
    return {};
  }
}

function commandCatalog(adapter: Adapter, args: string[]): ModelCatalog {
  const command = args.join(" ");
  const known = EXHAUSTIVE[adapter.id];
  const from = `\`${adapter.bin} ${command}\``;
  return known?.args === command ? { exhaustive: true, match: known.match, from } : { exhaustive: false, match: "exact", from };
}

/** The agent's ACP command as a run would start it (least-privileged mode), probed in a fresh temporary folder. */
async function acpOffer(adapter: Adapter, bin: string, flags: string[] | undefined, env: Env) {
  const cwd = mkdtempSync(join(tmpdir(), "od-acp-models-"));
  try {
    const invocation = adapter.invoke({ prompt: "", cwd, mode: probeMode(adapter), bin, flags: flags ? new Set(flags) : undefined });
    return await probeAcpSession({
      cmd: [bin, ...invocation.argv],
      env: { ...env, ...invocation.env },
      cwd,
      timeoutMs: ACP_PROBE_MS,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function probeMode(adapter: Adapter): Mode {
  return adapter.capabilities.readOnly ? "read-only" : adapter.capabilities.edit ? "edit" : "full";
}

/** The offer's ids as the catalog (the agent's own list: exhaustive), names where they differ, and its modes. */
function fromOffer(offer: { models: Listed[]; modes: Listed[] } | undefined): Partial<CatalogDetection> {
  if (!offer) return {};
  const listed = offer.models.filter((m) => sane(m.id));
  const models = [...new Set(listed.map((m) => m.id))];
  const names = Object.fromEntries(listed.filter((m) => m.name && m.name !== m.id && sane(m.name)).map((m) => [m.id, m.name!]));
  const modes = [...new Set(offer.modes.map((m) => m.id).filter(sane))];
  const catalog: ModelCatalog = {
    exhaustive: models.length > 0,
    match: "exact",
    from: "ACP session/new",
    ...(Object.keys(names).length ? { names } : {}),
    ...(modes.length ? { modes } : {}),
  };
  if (models.length) return { models, modelSource: "catalog", catalog };
  return modes.length ? { catalog } : {};
}

/** An id or name worth keeping: short, printable, one line. */
function sane(s: string): boolean {
  return s.length > 0 && s.length <= 200 && !/[\x00-\x1f\x7f]/.test(s);
}
