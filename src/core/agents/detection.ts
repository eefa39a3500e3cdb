/** What detection tells of one adapter: the shape `od agents`, `od doctor`, the server and the library share. */
import type { AuthState } from "./adapter.ts";

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
  configDir?: string;
  auth: AuthState;
  login?: string;
  /** Flags from detect.help found in `--help`. */
  flags?: string[];
  models: string[];
  modelSource: "catalog" | "aliases" | "none";
  efforts: string[];
  problems: Problem[];
}
