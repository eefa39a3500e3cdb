/** What detection tells of one adapter: the shape `od agents`, `od doctor`, the server and the library share. */
import type { AuthState } from "../contract/adapter.ts";

/**
 * A probe that did not answer in time (a busy machine): the CLI is there, so the
 * agent stays ready and only what the probe would have told (its version, its
 * optional flags) is unknown. Such a detection is not cached.
 */
export const PROBE_SLOW = "PROBE_SLOW";

export interface Problem {
  code: string;
  message: string;
  hint?: string;
}

export interface Detection {
  id: string;
  name: string;
  /** ready: usable; missing: not installed; broken: installed but does not run; outdated: below minVersion; logged-out: auth missing. */
  status: "ready" | "missing" | "broken" | "outdated" | "logged-out";
  installed: boolean;
  /** Both signals agree: the executable runs and its config folder exists (or the adapter declares none). */
  confident: boolean;
  path?: string;
  /** How the executable was found; "tool-dir" means PATH lacks its folder. */
  via?: "override" | "path" | "tool-dir";
  version?: string;
  /** Where `version` came from: the install on disk (an npm package.json, a versioned folder), or the CLI's `--version`. */
  versionFrom?: "package" | "install-dir" | "probe";
  configDir?: string;
  auth: AuthState;
  login?: string;
  /** Flags from detect.help found in `--help`. */
  flags?: string[];
  models: string[];
  modelSource: "catalog" | "aliases" | "none";
  efforts: string[];
  /** Why the agent is not ready; on a ready agent, notes that change nothing of its use (code PROBE_SLOW). */
  problems: Problem[];
}

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
