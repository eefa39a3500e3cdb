/**
 * Command-line budget guards for adapters whose CLI takes the prompt in argv.
 * The pipeline runs them before anything is spawned: the raw byte budget before
 * the executable is resolved, the projected Windows command line after `invoke`.
 * A refusal is one OdError AGENT_PROMPT_TOO_LARGE naming the adapter and the
 * figures. Pure: the platform and environment are arguments.
 */
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import { CMD_EXE_MAX_CHARS, CREATE_PROCESS_MAX_CHARS, EXE_MARGIN, projectLaunch, SHIM_MARGIN } from "./windows.ts";

export type BudgetAdapter = Pick<Adapter, "id" | "name"> & { prompt: Pick<Adapter["prompt"], "via" | "maxPromptArgBytes"> };

/** macOS has ARG_MAX of about 1 MiB for argv and environment together, and no per-argument cap. */
export const MACOS_MIN_PROMPT_ARG_BYTES = 262_144;
/** Linux caps one argv entry at 128 KiB (MAX_ARG_STRLEN); this keeps headroom under it. */
export const POSIX_MIN_PROMPT_ARG_BYTES = 100_000;

export const PROMPT_TOO_LARGE_HINT =
  "Trim the skills and context you attach, shorten the conversation, or pick an adapter that reads the prompt from stdin.";

export interface BudgetRefusal {
  /** Which guard refused: the raw prompt, a `.cmd` shim's line, a direct `.exe` line. */
  kind: "raw" | "shim" | "exe";
  /** UTF-8 bytes for `raw`, UTF-16 characters of the command line otherwise. */
  length: number;
  limit: number;
  error: OdError;
}

/** The raw budget on `platform`: the declared figure on Windows, at least 256 KiB on macOS, at least 100,000 bytes elsewhere. */
export function promptArgLimit(declared: number, platform: NodeJS.Platform): number {
  if (platform === "win32") return declared;
  if (platform === "darwin") return Math.max(declared, MACOS_MIN_PROMPT_ARG_BYTES);
  return Math.max(declared, POSIX_MIN_PROMPT_ARG_BYTES);
}

/** Guard 1: the composed prompt's UTF-8 length against the adapter's budget (equal passes). */
export function checkPromptArgBudget(
  adapter: BudgetAdapter,
  prompt: string,
  platform: NodeJS.Platform = process.platform,
): BudgetRefusal | null {
  const declared = adapter.prompt.maxPromptArgBytes;
  if (declared === undefined) return null;
  const bytes = Buffer.byteLength(prompt, "utf8");
  const limit = promptArgLimit(declared, platform);
  if (bytes <= limit) return null;
  const message =
    `${label(adapter)} accepts the prompt only as a command-line argument, and this prompt is too large for it ` +
    `(${bytes} > ${limit} bytes of UTF-8 on ${platformName(platform)})`;
  return { kind: "raw", length: bytes, limit, error: new OdError("AGENT_PROMPT_TOO_LARGE", message, PROMPT_TOO_LARGE_HINT) };
}

/**
 * Guards 2 and 3: the exact command line Windows would receive for
 * `[bin, ...args]`, from the same function the spawn layer uses. A `.cmd`/`.bat`
 * shim is held to cmd.exe's line limit, a direct `.exe` to CreateProcess's; one
 * binary is one or the other, never both. Null off Windows and for POSIX paths.
 */
export function checkCommandLineBudget(
  adapter: BudgetAdapter,
  bin: string,
  args: readonly string[],
  opts: { platform?: NodeJS.Platform; env?: Env } = {},
): BudgetRefusal | null {
  if (adapter.prompt.maxPromptArgBytes === undefined) return null;
  const launch = projectLaunch([bin, ...args], opts.platform ?? process.platform, opts.env ?? process.env);
  if (!launch) return null;
  const length = launch.commandLine.length;
  if (length <= launch.limit) return null;
  const message =
    launch.kind === "shim"
      ? `${label(adapter)} runs through a .cmd shim (${bin}), and with this prompt its command line would be ${length} characters ` +
        `after cmd.exe quote-doubling and %-escaping, over cmd.exe's line limit ` +
        `(${length} > ${launch.limit} chars: cmd.exe accepts ${CMD_EXE_MAX_CHARS}, less ${SHIM_MARGIN} for the shim's own command)`
      : `${label(adapter)} builds a CreateProcess command line of ${length} characters with this prompt, after libuv quote-escaping, ` +
        `over the Windows limit (${length} > ${launch.limit} chars: CreateProcess accepts ${CREATE_PROCESS_MAX_CHARS}, less a ${EXE_MARGIN} margin)`;
  return { kind: launch.kind, length, limit: launch.limit, error: new OdError("AGENT_PROMPT_TOO_LARGE", message, PROMPT_TOO_LARGE_HINT) };
}

/** Throws the refusal of guard 1, if any. */
export function guardPromptArgBudget(adapter: BudgetAdapter, prompt: string, platform?: NodeJS.Platform): void {
  const refusal = checkPromptArgBudget(adapter, prompt, platform);
  if (refusal) throw refusal.error;
}

/** Throws the refusal of guard 2 or 3, if any. */
export function guardCommandLineBudget(
  adapter: BudgetAdapter,
  bin: string,
  args: readonly string[],
  opts?: { platform?: NodeJS.Platform; env?: Env },
): void {
  const refusal = checkCommandLineBudget(adapter, bin, args, opts);
  if (refusal) throw refusal.error;
}

function platformName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "Windows" : platform === "darwin" ? "macOS" : platform === "linux" ? "Linux" : platform;
}

function label(adapter: BudgetAdapter): string {
  return adapter.name === adapter.id ? adapter.name : `${adapter.name} (${adapter.id})`;
}
