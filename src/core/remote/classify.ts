import type { Classification, ClassifyContext } from "../contract/adapter.ts";
import { formatTarget, type Target } from "./target.ts";

/**
 * Why a run on a target ended before its agent could say so: the engine could not reach the
 * target (ssh exits 255; docker, podman and kubectl name a missing or stopped container or pod),
 * or the target has no such CLI (the wrapper's `env` exits 127). Undefined: the agent's own
 * classifier decides, as on this machine.
 */
const UNREACHABLE: Record<Target["kind"], RegExp> = {
  ssh: /^ssh: |Permission denied \(|Host key verification failed|Connection (refused|closed|timed out)|Could not resolve hostname|No route to host/m,
  docker: /No such container|is not running|Cannot connect to the Docker daemon|permission denied while trying to connect/i,
  podman: /no such container|is not running|unable to connect to Podman|cannot connect to Podman/i,
  kubectl:
    /Error from server \(NotFound\)|container not found|unable to upgrade connection|The connection to the server .* was refused|error: You must be logged in/i,
};

export function classifyRemote(target: Target, bin: string, ctx: ClassifyContext): Classification | undefined {
  const where = formatTarget(target);
  const last = ctx.stderrTail.trim().split("\n").pop()?.trim().slice(0, 300) ?? "";
  const sshFailed = target.kind === "ssh" && ctx.exitCode === 255;
  if (sshFailed || UNREACHABLE[target.kind].test(ctx.stderrTail))
    return {
      code: "TARGET_UNREACHABLE",
      message: `Could not reach ${where}${last ? `: ${last}` : ""}`,
      hint:
        target.kind === "ssh"
          ? `Check that \`ssh ${target.user ? `${target.user}@` : ""}${target.host}\` works without a prompt (od runs ssh in BatchMode with your own config, agent and known_hosts).`
          : `Check that the ${target.kind === "kubectl" ? "pod" : "container"} is running: od runs \`${target.kind} exec -i\` with your own configuration.`,
    };
  if (ctx.exitCode === 127 && /not found|No such file/i.test(ctx.stderrTail))
    return {
      code: "AGENT_NOT_FOUND",
      message: `${bin} is not installed on ${where}${last ? ` (${last})` : ""}`,
      hint: `Install it there, on the PATH of a non-interactive shell (\`od agents --on ${where}\` lists what the target has).`,
    };
  return undefined;
}
