/**
 * acpx (an ACP client from npm that no one here wrote) driving `od acp`: where it is, and how to run
 * it with `--agent '<od acp command>'`, reading its `--format json` output (the wire, both ways).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * OD_ACPX, then the cache .ci/run installs it into (not a devDependency: its lock would need
 * platform packages of @openclaw/fs-safe that this registry does not serve, which `npm ci` refuses),
 * then the scratch install the bench uses.
 */
export const ACPX = [
  process.env.OD_ACPX,
  join(homedir(), ".cache", "od-acpx", "node_modules", ".bin", "acpx"),
  "/opt/od-scratch/acpx/node_modules/.bin/acpx",
].find((p): p is string => !!p && existsSync(p));
export const NO_ACPX =
  "acpx is not installed (npm install --prefix ~/.cache/od-acpx acpx@0.19.1, as .ci/run does, or set OD_ACPX to its bin)";

export type Wire = { id?: number | string; method?: string; params?: any; result?: any; error?: any };

export interface AcpxRun {
  code: number;
  wire: Wire[];
  stderr: string;
}

/** Runs `acpx --agent <agentCmd> --cwd <cwd> --format json <args…>` to its end. */
export async function acpx(agentCmd: string, cwd: string, args: string[], env: Record<string, string>): Promise<AcpxRun> {
  const p = Bun.spawn([ACPX!, "--agent", agentCmd, "--cwd", cwd, "--format", "json", ...args], {
    env,
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [out, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const wire = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Wire);
  return { code, wire, stderr };
}

/** The session/update payloads of one kind that crossed the wire. */
export const updatesOf = (wire: Wire[], kind: string) =>
  wire.filter((m) => m.method === "session/update" && m.params?.update?.sessionUpdate === kind).map((m) => m.params.update);

export const textOf = (wire: Wire[]) =>
  updatesOf(wire, "agent_message_chunk")
    .map((u) => u.content?.text ?? "")
    .join("");

export const stopReasonOf = (wire: Wire[]) => wire.find((m) => m.result?.stopReason)?.result.stopReason as string | undefined;

/**
 * A prompt in an acpx session, cancelled with `acpx cancel` once `ready(wire so far)` holds; then the
 * session is closed (acpx keeps a session's agent alive between prompts). Returns the prompt's run.
 */
export async function cancelled(
  agentCmd: string,
  cwd: string,
  prompt: string,
  env: Record<string, string>,
  ready: (wire: string) => boolean,
  timeoutMs = 60_000,
): Promise<AcpxRun> {
  const created = await acpx(agentCmd, cwd, ["sessions", "new"], env);
  if (created.code !== 0) throw new Error(`acpx sessions new: ${created.stderr}`);
  const p = Bun.spawn([ACPX!, "--agent", agentCmd, "--cwd", cwd, "--format", "json", "prompt", prompt], {
    env,
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let out = "";
  const pumped = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of p.stdout) out += decoder.decode(chunk, { stream: true });
  })();
  const deadline = Date.now() + timeoutMs;
  while (!ready(out) && Date.now() < deadline) await Bun.sleep(100);
  await acpx(agentCmd, cwd, ["cancel"], env);
  await pumped;
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  await acpx(agentCmd, cwd, ["sessions", "close"], env);
  const wire = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Wire);
  return { code, wire, stderr };
}
