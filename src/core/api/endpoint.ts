import { OdError } from "../contract/errors.ts";
import { rec } from "../protocols/parse-helpers.ts";
import { type ApiConfig, DEFAULTS } from "./config.ts";
import { providerMessage } from "./http.ts";
import { lastingFailure, unreachable } from "./reach.ts";

/** How long a model list may take: a server that answers at all answers this in well under a second. */
export const LIST_MS = 10_000;

/** Pages of Anthropic's list read at most (1000 models each). */
const MAX_PAGES = 10;

const VALID_ID = /^[\w./:@+-]{1,200}$/;

export interface EndpointModels {
  /** The ids the endpoint lists, in its order. */
  models: string[];
  /** Where they came from, for people: "GET http://localhost:11434/v1/models". */
  from: string;
}

/** The URL of the endpoint's model list: OpenAI's `{base}/models` (base ends in /v1), Anthropic's `/v1/models`. */
export function modelsUrl(config: Pick<ApiConfig, "provider" | "baseUrl">): string {
  if (config.provider === "openai") return `${config.baseUrl}/models`;
  return config.baseUrl.endsWith("/v1") ? `${config.baseUrl}/models` : `${config.baseUrl}/v1/models`;
}

/**
 * The models the loop's endpoint serves, from its own list (OpenAI's and every compatible
 * server's `GET /v1/models`; Anthropic's, with its headers, page by page). An endpoint that
 * cannot be reached, or does not answer within `timeoutMs`, is ENDPOINT_UNREACHABLE at once; a
 * refused key AGENT_AUTH_REQUIRED; any other answer that is no list AGENT_ERROR.
 */
export async function endpointModels(
  config: Pick<ApiConfig, "provider" | "baseUrl" | "key">,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<EndpointModels> {
  const url = modelsUrl(config);
  const headers: Record<string, string> =
    config.provider === "anthropic"
      ? { "anthropic-version": "2023-06-01", "x-api-key": config.key ?? "" }
      : config.key
        ? { authorization: `Bearer ${config.key}` }
        : {};
  const timeoutMs = opts.timeoutMs ?? LIST_MS;
  const signal = AbortSignal.any([...(opts.signal ? [opts.signal] : []), AbortSignal.timeout(timeoutMs)]);
  const models: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = config.provider === "anthropic" ? `?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ""}` : "";
    const body = await getJson(`${url}${query}`, headers, signal, opts.signal, timeoutMs, config.provider);
    const data = Array.isArray(body.data) ? body.data : undefined;
    if (!data) throw new OdError("AGENT_ERROR", `${url} answered with no model list`, noList);
    for (const m of data) {
      const id = rec(m).id;
      if (typeof id === "string" && VALID_ID.test(id) && !models.includes(id)) models.push(id);
    }
    after = typeof body.last_id === "string" ? body.last_id : undefined;
    if (config.provider !== "anthropic" || body.has_more !== true || !after) break;
  }
  return { models, from: `GET ${url}` };
}

const noList = "Pass --model (or set OD_API_MODEL) to a model the endpoint serves.";

async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  caller: AbortSignal | undefined,
  timeoutMs: number,
  provider: ApiConfig["provider"],
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal });
  } catch (err) {
    if (caller?.aborted) throw err;
    const reason = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : (lastingFailure(err) ?? (err as Error).message ?? String(err));
    throw unreachable(url, reason);
  }
  const text = await res.text().catch(() => "");
  if (res.status === 401 || res.status === 403)
    throw new OdError(
      "AGENT_AUTH_REQUIRED",
      `${url} refused the key (${res.status}${text ? `: ${providerMessage(text)}` : ""})`,
      `Set ${DEFAULTS[provider].keyVar} (or OD_API_KEY) to a key this endpoint accepts.`,
    );
  if (!res.ok) throw new OdError("AGENT_ERROR", `${url} answered ${res.status}${text ? `: ${providerMessage(text)}` : ""}`, noList);
  try {
    return rec(JSON.parse(text));
  } catch {
    throw new OdError("AGENT_ERROR", `${url} answered with no JSON`, noList);
  }
}
