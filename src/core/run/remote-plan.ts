import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import type { RunRequest } from "../contract/request.ts";
import { classifyRemote } from "../remote/classify.ts";
import { parseTarget, type Target } from "../remote/target.ts";

/**
 * What a run on a target needs from its request, checked before anything is planned: the agent
 * must be a CLI (od's own loop runs in od), the working directory is the target's (absolute, or
 * the login directory when none is given), and what only exists on this machine — a prompt file,
 * image files, a role from this directory — is refused with a clear reason. Skills go into the
 * prompt (the target's files are not od's to place).
 */
export function remoteTarget(adapter: Adapter, request: RunRequest): Target | undefined {
  if (!request.on) return undefined;
  const target = parseTarget(request.on);
  const refuse = (what: string) => {
    throw new OdError("INVALID_REQUEST", `${adapter.name} on ${request.on}: ${what}`, "Run it on this machine, or without that option.");
  };
  if (adapter.protocol.kind === "loop") refuse("od's own loop runs inside od, not on a target");
  if (adapter.prompt.via === "file") refuse("it reads its prompt from a file, which the target cannot see");
  if (request.images?.length) refuse("image files are on this machine, not on the target");
  if (request.role) refuse("roles are read from this machine's working directory");
  if (request.cwd !== undefined && !request.cwd.startsWith("/"))
    refuse(`the working directory must be an absolute path on the target (got "${request.cwd}")`);
  return target;
}

/**
 * The adapter as a run on a target sees it: skills always travel in the prompt, and an end the
 * engine explains (the target unreachable, the CLI missing there) is named before the agent's own
 * classifier guesses.
 */
export function remoteAdapter(adapter: Adapter, target: Target): Adapter {
  return {
    ...adapter,
    capabilities: { ...adapter.capabilities, skills: "prompt" },
    classify: (ctx) => classifyRemote(target, adapter.bin, ctx) ?? adapter.classify?.(ctx),
  };
}
