// HTTP failures (429 with retry-after, 5xx) in each API's own error shape.
import { json } from "./stream.ts";
import type { ApiKind, HttpFailure } from "./types.ts";

const ANTHROPIC_TYPES: Record<number, string> = { 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error" };

export function failureResponse(api: ApiKind, f: HttpFailure): Response {
  const body =
    api === "anthropic"
      ? { type: "error", error: { type: ANTHROPIC_TYPES[f.status] ?? "api_error", message: f.message } }
      : {
          error: {
            message: f.message,
            type: f.status === 429 ? "rate_limit_exceeded" : "server_error",
            code: f.status === 429 ? "rate_limit_exceeded" : null,
          },
        };
  const res = json(body, f.status);
  for (const [k, v] of Object.entries(f.headers)) res.headers.set(k, v);
  return res;
}
