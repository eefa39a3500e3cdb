import { OdError } from "../contract/errors.ts";
import type { Mode } from "../contract/events.ts";
import type { LoopSettings } from "../contract/loop.ts";
import type { Env } from "../contract/request.ts";
import { withoutTrailingSlashes } from "../os/paths.ts";

export type Provider = "anthropic" | "openai";

export interface ApiConfig {
  provider: Provider;
  /** Without a trailing slash; the OpenAI base includes its /v1. */
  baseUrl: string;
  /** Undefined for a local endpoint that needs none. */
  key?: string;
  /** Undefined: the provider's default, or the first model a custom endpoint lists. */
  model?: string;
  mode: Mode;
  resume?: string;
  maxTurns: number;
  maxTokens: number;
}

export const DEFAULTS = {
  anthropic: {
    baseUrl: "https://api.anthropic.com",
    model: "claude-sonnet-4-5",
    keyVar: "ANTHROPIC_API_KEY",
    baseVar: "ANTHROPIC_BASE_URL",
  },
  openai: { baseUrl: "https://api.openai.com/v1", model: "gpt-4.1", keyVar: "OPENAI_API_KEY", baseVar: "OPENAI_BASE_URL" },
} as const;

/** Model requests per run before the loop stops (each tool round trip is one). */
export const DEFAULT_MAX_TURNS = 50;
/** Input plus output tokens per run, summed over its requests, before the loop stops. */
export const DEFAULT_MAX_TOKENS = 1_000_000;

/** The environment variables that configure the loop; any one of them set means "configured" (`od agents`). */
export const CONFIG_KEYS = ["OD_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OD_API_BASE_URL"];

/**
 * The loop's configuration: the run's settings (mode, model, resume, a turn
 * cap) as the pipeline hands them over, the rest from the environment.
 * Provider: OD_API_PROVIDER, else openai when OD_API_BASE_URL is set (local and
 * hosted OpenAI-compatible servers), else whichever of ANTHROPIC_API_KEY /
 * OPENAI_API_KEY is set. Key: OD_API_KEY, else the provider's.
 */
export function resolveConfig(settings: LoopSettings, env: Env): ApiConfig {
  const explicit = env.OD_API_PROVIDER;
  if (explicit !== undefined && explicit !== "anthropic" && explicit !== "openai")
    throw new OdError(
      "INVALID_REQUEST",
      `OD_API_PROVIDER must be "anthropic" or "openai", not "${explicit}"`,
      "Use openai for any OpenAI-compatible server (OpenRouter, Ollama, LM Studio, vLLM).",
    );
  const customBase = env.OD_API_BASE_URL;
  const provider: Provider =
    explicit ?? (customBase ? "openai" : env.ANTHROPIC_API_KEY ? "anthropic" : env.OPENAI_API_KEY ? "openai" : "anthropic");
  const d = DEFAULTS[provider];
  const baseUrl = normalizeBase(customBase ?? env[d.baseVar] ?? d.baseUrl, provider);
  const key = env.OD_API_KEY || env[d.keyVar] || undefined;
  const official = baseUrl === normalizeBase(d.baseUrl, provider);
  if (!key && (provider === "anthropic" || official))
    throw new OdError(
      "AGENT_AUTH_REQUIRED",
      `No API key for ${provider} at ${baseUrl}`,
      `Set ${d.keyVar} (or OD_API_KEY)${provider === "openai" ? ", or point OD_API_BASE_URL at a local server that needs no key" : ""}.`,
    );
  return {
    provider,
    baseUrl,
    key,
    model: settings.model ?? (env.OD_API_MODEL || undefined) ?? (official || provider === "anthropic" ? d.model : undefined),
    mode: settings.mode,
    resume: settings.resume,
    maxTurns:
      settings.maxTurns !== undefined
        ? positive(settings.maxTurns, DEFAULT_MAX_TURNS, "maxTurns")
        : positive(env.OD_API_MAX_TURNS, DEFAULT_MAX_TURNS, "OD_API_MAX_TURNS"),
    maxTokens: positive(env.OD_API_MAX_TOKENS, DEFAULT_MAX_TOKENS, "OD_API_MAX_TOKENS"),
  };
}

/** The endpoint the loop would call with this environment (for `od agents`); undefined when unconfigured. */
export function endpointOf(env: Env): string | undefined {
  try {
    const c = resolveConfig({ mode: "edit" }, env); // the mode does not change where requests go
    return `${c.provider} ${c.baseUrl}`;
  } catch {
    return undefined;
  }
}

/** No trailing slash; an OpenAI-compatible server given as a bare origin (http://localhost:11434) gets /v1. */
function normalizeBase(raw: string, provider: Provider): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OdError("INVALID_REQUEST", `Not a URL: ${raw}`, "Set OD_API_BASE_URL to an http(s) URL such as http://localhost:11434/v1.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OdError("INVALID_REQUEST", `OD_API_BASE_URL must be http(s): ${raw}`);
  const path = withoutTrailingSlashes(url.pathname);
  const withV1 = provider === "openai" && path === "" ? "/v1" : path;
  return `${url.origin}${withV1}`;
}

function positive(value: string | number | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new OdError("INVALID_REQUEST", `${name} must be a positive whole number, not "${value}"`);
  return n;
}
