import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../contract/errors.ts";
import { lazySchema } from "../contract/lazy.ts";
import type { Env } from "../contract/request.ts";
import { z } from "../contract/zod.ts";
import { odHome } from "../os/paths.ts";
import { detectCached } from "./detect-cache.ts";
import type { Registry } from "./registry.ts";

/** When nothing names an agent, the first of these that is ready is used. */
export const PREFERENCE = ["claude", "codex", "gemini", "opencode", "cursor-agent", "copilot", "qwen", "pi", "qoder", "api"];

const Config = lazySchema(() => z.object({ defaultAgent: z.string().min(1).optional() }).passthrough());

/** `~/.open-design/config.json`; a missing file is empty, a broken one is an error that says where. */
export function readConfig(env: Env = process.env): z.infer<typeof Config> {
  const path = join(odHome(env), "config.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  const parsed = Config.safeParse(
    (() => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    })(),
  );
  if (!parsed.success)
    throw new OdError("INVALID_REQUEST", `${path} is not a valid od config`, 'Expected JSON like {"defaultAgent": "claude"}.');
  return parsed.data;
}

/**
 * Which agent runs: `--agent`, then `OD_AGENT`, then `defaultAgent` in
 * config.json, then the first ready agent in PREFERENCE order (then any other
 * ready one). Returns the id and why it was chosen.
 */
export async function selectAgent(
  registry: Registry,
  explicit: string | undefined,
  env: Env = process.env,
): Promise<{ agent: string; because: string }> {
  if (explicit) return { agent: explicit, because: "--agent" };
  if (env.OD_AGENT) return { agent: env.OD_AGENT, because: "OD_AGENT" };
  const configured = readConfig(env).defaultAgent;
  if (configured) return { agent: configured, because: "defaultAgent in config.json" };
  const adapters = registry.list().map((e) => e.adapter);
  const { detections } = await detectCached(adapters, { env });
  const ready = new Set(detections.filter((d) => d.status === "ready").map((d) => d.id));
  const rank = (id: string) => (PREFERENCE.includes(id) ? PREFERENCE.indexOf(id) : PREFERENCE.length);
  const first = [...ready].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))[0]; // kebab-case ids: code-unit order
  if (!first)
    throw new OdError(
      "AGENT_NOT_FOUND",
      "No agent CLI is ready to use",
      "Run `od doctor` to see what is installed and what to do, or pass --agent.",
    );
  return { agent: first, because: "the first ready agent" };
}
