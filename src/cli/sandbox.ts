import type { ArgsDef } from "citty";
import type { Support } from "../core/os/sandbox/choose.ts";

/**
 * `--sandbox auto|require|off`, on every command that starts agents: whether the kernel holds the
 * mode (Landlock on Linux, Seatbelt on macOS) besides the CLI's own flags. The same as `$OD_SANDBOX`,
 * which it sets for this od (so every run it starts, in any surface, gets it).
 */
export const sandboxArg = {
  sandbox: {
    type: "enum",
    options: ["auto", "require", "off"],
    description:
      "Whether the kernel holds the mode besides the CLI's flags: auto (where the machine can; the default, or $OD_SANDBOX), require (refuse to start without it), off",
  },
} satisfies ArgsDef;

/** Makes the flag this od's setting. */
export function applySandbox(args: { sandbox?: string }): void {
  if (args.sandbox) process.env.OD_SANDBOX = args.sandbox;
}

/** What the kernel holds on this machine, in one line for people. */
export function supportLine(s: Support): string {
  if (s.kind === "landlock")
    return `kernel sandbox: Landlock (ABI ${s.abi}) holds read-only and edit for every local agent${s.protect ? ", .git kept read-only in edit" : `; ${s.reason}`}`;
  if (s.kind === "seatbelt") return "kernel sandbox: Seatbelt (sandbox-exec) holds read-only and edit for every local agent";
  return `kernel sandbox: none (${s.reason}); read-only and edit rest on each CLI's own flags, and agents without one run in full mode only`;
}
