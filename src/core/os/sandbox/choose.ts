import { existsSync } from "node:fs";
import { OdError } from "../../contract/errors.ts";
import type { Mode } from "../../contract/events.ts";
import { lazySchema } from "../../contract/lazy.ts";
import { z } from "../../contract/zod.ts";
import { type HelperState, sandboxHelper } from "./helper.ts";
import type { SandboxPolicy } from "./policy.ts";
import { SANDBOX_EXEC } from "./seatbelt.ts";

/**
 * Whether the kernel holds a run's mode, and with what. The CLI's own flags are one wall; this is
 * the other: Landlock on Linux (through the helper), Seatbelt on macOS. `--sandbox auto` (the
 * default) uses it where the machine has it and says so where it does not; `require` refuses to
 * start without it; `off` opts out.
 */
export const SandboxSetting = lazySchema(() => z.enum(["auto", "require", "off"]));
export type SandboxSetting = z.infer<typeof SandboxSetting>;

/** What holds a run besides the CLI's flags. */
export type SandboxKind = "landlock" | "seatbelt" | "in-process" | "none";

export interface Sandbox {
  kind: SandboxKind;
  /** What the agent may write; set when the kernel holds the run. */
  policy?: SandboxPolicy;
  /** Why the kernel does not hold this run, or holds it only in part: said in the run's header. */
  note?: string;
}

/** What this machine's kernel can hold, whatever the run: for `od doctor`, `od agents` and the choice below. */
export interface Support {
  kind: "landlock" | "seatbelt" | "none";
  /** Landlock's ABI; whether a read-only .git inside a writable folder can be held. */
  abi?: number;
  protect?: boolean;
  /** Why not, when kind is "none"; what is missing, when `protect` is false. */
  reason?: string;
}

/** This machine's support (the helper's probe runs once per od process, on first ask). */
export function sandboxSupport(platform: NodeJS.Platform = process.platform, helper: () => HelperState = sandboxHelper): Support {
  if (platform === "darwin")
    return existsSync(SANDBOX_EXEC) ? { kind: "seatbelt" } : { kind: "none", reason: `${SANDBOX_EXEC} is missing` };
  if (platform !== "linux") return { kind: "none", reason: `${platform === "win32" ? "Windows" : platform} has no sandbox od can use` };
  const state = helper();
  if (!state.ok) return { kind: "none", reason: state.reason };
  if (state.facts.landlock < 1)
    return { kind: "none", reason: "this kernel has no Landlock (Linux 5.13 or newer, with landlock in its lsm= list)" };
  const reason = state.facts.protect
    ? undefined
    : "no user namespaces here, so what is kept read-only beneath a writable folder (the CLI's own config, a .git in the working directory) stays writable";
  return { kind: "landlock", abi: state.facts.landlock, protect: state.facts.protect, reason };
}

export interface SandboxChoice {
  setting: SandboxSetting;
  mode: Mode;
  /** Where the agent runs: a process here, od's own loop in process, or a remote target. */
  where: "here" | "in-process" | { target: string };
  /** The policy of the mode for this run (undefined in full mode). */
  policy: SandboxPolicy | undefined;
  support: () => Support;
}

/** The sandbox of one run; with `require`, a run the kernel cannot hold whole is refused (SANDBOX_UNAVAILABLE). */
export function chooseSandbox(c: SandboxChoice): Sandbox {
  if (c.mode === "full") return { kind: "none" };
  if (c.setting === "off") return { kind: "none", note: "--sandbox off: only the CLI's own flags hold the mode" };
  if (c.where === "in-process") return { kind: "in-process" };
  const why = typeof c.where === "object" ? `on ${c.where.target} the kernel is not od's to hold` : undefined;
  const support = why ? undefined : c.support();
  const reason = why ?? support?.reason;
  if (!support || support.kind === "none" || !c.policy) return refuse(c, reason ?? "no sandbox");
  const partial = support.kind === "landlock" && !support.protect && c.policy.readOnly.length > 0;
  if (partial && c.setting === "require") return refuse(c, reason!);
  const policy = partial ? { ...c.policy, readOnly: [] } : c.policy;
  return { kind: support.kind, policy, ...(partial ? { note: reason } : {}) };
}

function refuse(c: SandboxChoice, reason: string): Sandbox {
  if (c.setting === "require")
    throw new OdError(
      "SANDBOX_UNAVAILABLE",
      `The kernel cannot hold --mode ${c.mode} here: ${reason}`,
      "Run without --sandbox require (the CLI's own flags then hold the mode alone), or where Landlock is available (Linux 5.13+).",
    );
  return { kind: "none", note: `${reason}: only the CLI's own flags hold the mode` };
}
