// Runs the `api` adapter through the real pipeline against the loopback model stub (both APIs).
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import api from "../../../plugins/api.ts";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import type { OdEvent } from "../../../src/core/contract/events.ts";
import { collect } from "../../helpers.ts";
import type { ModelStub } from "../../live/model-stub.ts";
import { type RunOptions, type RunRequest, runAgent } from "../../support/run.ts";

export const registry = createRegistry([api]);
export const PROVIDERS = ["anthropic", "openai"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The environment that points the loop at the stub: a key, the provider, a model, and a private OD_HOME. */
export function stubEnv(stub: ModelStub, provider: ProviderName, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: "/usr/bin:/bin",
    HOME: home,
    OD_HOME: join(home, ".od"),
    OD_API_PROVIDER: provider,
    OD_API_BASE_URL: provider === "openai" ? `${stub.url}/v1` : stub.url,
    OD_API_MODEL: "stub-model",
    ...(provider === "anthropic" ? { ANTHROPIC_API_KEY: "sk-ant-test" } : { OPENAI_API_KEY: "sk-test" }),
    ...extra,
  };
}

export function runApi(
  request: Partial<RunRequest> & { cwd: string },
  env: Record<string, string>,
  opts: Partial<RunOptions> = {},
): Promise<OdEvent[]> {
  return collect(runAgent({ agent: "api", prompt: "do the task", ...request }, { registry, env, ...opts }));
}

/** Every entry under dir: files with their bytes and mtime, links with their target, others by kind. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(d.parentPath, d.name);
    const key = relative(dir, full);
    if (d.isSymbolicLink()) out[key] = "<link>";
    else if (d.isFile()) out[key] = `${readFileSync(full, "base64")}@${statSync(full).mtimeMs}`;
    else out[key] = d.isDirectory() ? "<dir>" : "<other>";
  }
  return out;
}

/** The tool results the model got back in the last request it received (both wire formats). */
export function toolResultsSent(stub: ModelStub): string[] {
  const body = stub.requests.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> };
  const out: string[] = [];
  for (const m of body?.messages ?? []) {
    if (m.role === "tool") out.push(String(m.content));
    if (Array.isArray(m.content))
      for (const c of m.content as Array<Record<string, unknown>>) if (c.type === "tool_result") out.push(String(c.content));
  }
  return out;
}

export const real = (p: string) => realpathSync(p);
