import { OdError } from "../contract/errors.ts";

/**
 * Failures to connect that no retry mends, by the code the runtime gives them: nothing listens
 * at the port, no such host, no route, a certificate refused. A connection dropped or reset once
 * made is another matter (a server restarting, a proxy in the way) and is worth another try.
 */
const LASTING: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "the network is unreachable",
  EADDRNOTAVAIL: "the address is not available here",
  FailedToOpenSocket: "the connection could not be opened",
};

/** Why a request could not reach its server, for people, when no retry would mend it; undefined for anything else. */
export function lastingFailure(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return undefined;
  if (LASTING[code]) return LASTING[code];
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) return `its TLS certificate was refused (${code})`;
  return undefined;
}

/** The error for an endpoint od's loop cannot reach: its URL, the reason, and what to check. */
export function unreachable(url: string, reason: string): OdError {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {}
  return new OdError(
    "ENDPOINT_UNREACHABLE",
    `Cannot reach ${url}: ${reason}`,
    `Is a server running at ${origin}? Start it, or set OD_API_BASE_URL to one that is; \`od agents --refresh\` checks again.`,
  );
}
