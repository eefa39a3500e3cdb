/**
 * What the web page offers a user with no agent ready: the agents od knows that are not installed,
 * each with the command that installs it on the server's platform (its adapter's `install` hint),
 * the well-known ones first. `od doctor` gives the same commands.
 */

export interface InstallHint {
  id: string;
  name: string;
  command: string;
  /** One of the well-known CLIs, shown first; the rest are listed on request. */
  featured: boolean;
}

/** The CLIs most people reach for, in this order. */
const FEATURED = ["claude", "codex", "gemini", "copilot", "cursor-agent", "opencode"];

/** A hint piped into a POSIX shell (`curl … | bash`) does not run in cmd or PowerShell. */
const POSIX_ONLY = /\|\s*(ba|z)?sh\b/;

/** The install commands for the agents not installed, for `platform` (default: this process's). */
export function installHints(
  agents: Array<{ id: string; name: string; installed: boolean; install?: string }>,
  platform: NodeJS.Platform = process.platform,
): InstallHint[] {
  const rank = (id: string) => (FEATURED.includes(id) ? FEATURED.indexOf(id) : FEATURED.length);
  return agents
    .filter((a) => !a.installed && a.install && !(platform === "win32" && POSIX_ONLY.test(a.install)))
    .map((a) => ({ id: a.id, name: a.name, command: a.install!, featured: FEATURED.includes(a.id) }))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}
