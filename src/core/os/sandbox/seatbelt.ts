import type { SandboxPolicy } from "./policy.ts";

/**
 * The macOS side: the same policy as a Seatbelt profile for `sandbox-exec -p <profile>`, the
 * mechanism Codex and Claude Code use there. Everything is allowed but writing; writing is allowed
 * only beneath the policy's writable paths, and the read-only ones are denied again after (in
 * Seatbelt the last matching rule wins). Paths must be real paths (`/private/tmp`, not `/tmp`):
 * Seatbelt matches the resolved path, which the caller resolves before it builds the profile.
 */

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Terminal devices beyond the policy's own list: macOS names its pseudo-terminals /dev/ttysNNN. */
const MAC_TTYS = '(regex #"^/dev/ttys[0-9]+$")';

/** A path as an SBPL string literal: quotes and backslashes escaped, no control characters. */
export function sbplString(path: string): string {
  if (/[\0-\x1f]/.test(path)) throw new Error(`a path with a control character cannot go in a sandbox profile: ${JSON.stringify(path)}`);
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** The Seatbelt profile that holds `policy`. */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const allowed = policy.writable.map((p) => `(subpath ${sbplString(p)})`);
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)", `(allow file-write*\n  ${[...allowed, MAC_TTYS].join("\n  ")})`];
  if (policy.readOnly.length) lines.push(`(deny file-write*\n  ${policy.readOnly.map((p) => `(subpath ${sbplString(p)})`).join("\n  ")})`);
  return `${lines.join("\n")}\n`;
}

/** The command that runs `cmd` under `policy` on macOS. */
export function seatbeltCommand(policy: SandboxPolicy, cmd: string[]): string[] {
  return [SANDBOX_EXEC, "-p", seatbeltProfile(policy), ...cmd];
}
