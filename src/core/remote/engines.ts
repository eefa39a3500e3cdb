import { join } from "node:path";
import { shQuote } from "./script.ts";
import type { Target } from "./target.ts";

/**
 * The argv that runs a `sh -c` script on a target, through the engine the user already has:
 * the system's OpenSSH client with the user's own config, agent and known_hosts (never
 * StrictHostKeyChecking=no; BatchMode, so a missing key fails at once instead of prompting; one
 * multiplexed connection per host), `docker|podman exec -i`, or `kubectl exec -i`. No local shell
 * is involved: each engine gets an argv array.
 */
export interface EngineOptions {
  /** Where OpenSSH keeps its multiplexing sockets (a private folder under OD_HOME). */
  controlDir: string;
  /** How long an idle master connection stays up for the next probe or run. */
  persistS?: number;
}

export function engineArgv(target: Target, script: string, opts: EngineOptions): string[] {
  switch (target.kind) {
    case "ssh":
      // The remote login shell parses the command string once: `sh -c '<script>'` gives the script to a POSIX sh whatever that shell is.
      return [...sshBase(target, opts), `sh -c ${shQuote(script)}`];
    case "docker":
    case "podman":
      return [target.kind, "exec", "-i", target.container, "sh", "-c", script];
    case "kubectl":
      return [
        "kubectl",
        "exec",
        "-i",
        ...(target.namespace ? ["-n", target.namespace] : []),
        target.pod,
        ...(target.container ? ["-c", target.container] : []),
        "--",
        "sh",
        "-c",
        script,
      ];
  }
}

/** ssh's options and destination, up to the command: `--` ends the options, so no name can read as one. */
function sshBase(target: Extract<Target, { kind: "ssh" }>, opts: EngineOptions): string[] {
  return [
    "ssh",
    "-T",
    "-o",
    "BatchMode=yes",
    "-o",
    "ControlMaster=auto",
    "-o",
    `ControlPath=${join(opts.controlDir, "%C")}`,
    "-o",
    `ControlPersist=${opts.persistS ?? 60}`,
    ...(target.port ? ["-p", String(target.port)] : []),
    "--",
    target.user ? `${target.user}@${target.host}` : target.host,
  ];
}

/** The executable each engine needs on this machine (for a clear error when it is missing). */
export function engineBin(target: Target): string {
  return target.kind === "ssh" ? "ssh" : target.kind;
}
