import { z } from "zod";

/** The closed set of error codes od reports, on every surface. */
export const ErrorCode = z.enum([
  "INVALID_REQUEST", // the request itself is malformed (flags, body)
  "AGENT_UNKNOWN", // no adapter with that id is registered
  "AGENT_NOT_FOUND", // the adapter's executable is not installed
  "AGENT_AUTH_REQUIRED", // the CLI is not logged in or the key was rejected
  "RATE_LIMITED", // the provider asked us to slow down
  "AGENT_PROMPT_TOO_LARGE", // the prompt does not fit what the CLI accepts
  "MODEL_NOT_AVAILABLE", // the model or effort is not offered by the CLI
  "AGENT_ERROR", // the agent reported a failure in its own stream
  "AGENT_CRASHED", // the process died or exited non-zero without a clearer reason
  "EMPTY_OUTPUT", // a clean exit that produced nothing
  "OUTPUT_LINE_TOO_LARGE", // one output line exceeded the framing bound
  "PROTOCOL_ERROR", // the agent broke its own protocol (RPC)
  "SPAWN_FAILED", // the OS refused to start the process
  "TIMEOUT", // the run exceeded its time limit
  "CANCELLED", // the user cancelled
  "PLUGIN_LOAD_FAILED", // a plugin could not be loaded
  "PLUGIN_ERROR", // a plugin's code failed during a run (invoke threw, parse never returned, the plugin exited)
  "UNAUTHORIZED", // a server request without the launch token
  "FORBIDDEN", // a server request from a foreign host or origin
  "RUN_NOT_FOUND", // no run with that id
  "STORAGE", // od's own storage (OD_HOME) is missing, not writable or full
  "TARGET_UNREACHABLE", // the run's target (an ssh host, a container, a pod) could not be reached
  "ENDPOINT_UNREACHABLE", // the model endpoint of od's own loop (OD_API_BASE_URL, a provider's API) could not be reached
  "SANDBOX_UNAVAILABLE", // --sandbox require, and the kernel cannot hold the mode here
  "INTERNAL", // a bug in od
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Codes worth trying again as they are (the same request may succeed later). */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["RATE_LIMITED", "TIMEOUT"]);

export interface OdErrorShape {
  code: ErrorCode;
  message: string;
  hint?: string;
  retryable: boolean;
}

/** The one error class of od: a code from a closed set, a message, and a hint the user can act on. */
export class OdError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;

  constructor(code: ErrorCode, message: string, hint?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "OdError";
    this.code = code;
    this.hint = hint;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  toJSON(): OdErrorShape {
    return { code: this.code, message: this.message, hint: this.hint, retryable: this.retryable };
  }

  /** Anything thrown becomes an OdError; unknown throwables are INTERNAL. */
  static from(err: unknown): OdError {
    if (err instanceof OdError) return err;
    const message = err instanceof Error ? err.message : String(err);
    return new OdError("INTERNAL", message, "This is a bug in od; please report it with `od run --json` output.", {
      cause: err,
    });
  }
}

/** Codes after which nothing good can come from the agent (or its plugin): the pipeline stops the run at once. */
const FINAL: ReadonlySet<ErrorCode> = new Set(["AGENT_AUTH_REQUIRED", "PLUGIN_ERROR"]);

export function isFinal(code: ErrorCode): boolean {
  return FINAL.has(code);
}

export function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code);
}

/**
 * The error that speaks for a run, given the one so far and the next: the first, unless it named no
 * cause (AGENT_ERROR: the agent only said it failed) and the next one does (its log, read when the
 * process exited, named the model it could not find).
 */
export function runError<E extends { code: ErrorCode }>(current: E | undefined, next: E): E {
  return !current || (current.code === "AGENT_ERROR" && next.code !== "AGENT_ERROR") ? next : current;
}

/** Process exit codes for the CLI, one per family of failure. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case "INVALID_REQUEST":
    case "AGENT_UNKNOWN":
    case "MODEL_NOT_AVAILABLE":
    case "AGENT_PROMPT_TOO_LARGE":
    case "RUN_NOT_FOUND": // an id that names no run is a bad request like any other
      return 2;
    case "AGENT_NOT_FOUND":
      return 3;
    case "AGENT_AUTH_REQUIRED":
      return 4;
    case "RATE_LIMITED":
      return 5;
    case "TIMEOUT":
      return 124;
    case "STORAGE":
      return 74; // sysexits' EX_IOERR
    case "TARGET_UNREACHABLE":
    case "ENDPOINT_UNREACHABLE":
      return 69; // sysexits' EX_UNAVAILABLE
    case "SANDBOX_UNAVAILABLE":
      return 77; // sysexits' EX_NOPERM
    case "CANCELLED":
      return 130;
    default:
      return 1;
  }
}
