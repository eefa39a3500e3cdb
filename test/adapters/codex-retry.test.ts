import { describe, expect, test } from "bun:test";
import { createState, parse } from "../../plugins/codex/parse.ts";

/** What one of codex's "Reconnecting..." records becomes, on a fresh run. */
const retry = (message: string) => parse({ type: "error", message }, createState(), JSON.stringify({ type: "error", message }));

describe("codex's retries", () => {
  test.each([
    "waiting for network (Connection failed: error sending request)",
    "2/5 (stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses))",
    "2/5 (unexpected status 4010)",
    "2/5 (code x401)",
    "2/5 (unauthorization pending)",
  ])("go on as a status: %s", (why) => {
    expect(retry(`Reconnecting... ${why}`)).toEqual([{ type: "status", label: "retrying", detail: why }]);
  });

  test.each([
    ["1/5 (unexpected status 401 Unauthorized: Invalid API key)", "unexpected status 401 Unauthorized: Invalid API key"],
    ["3/5 (UNAUTHORIZED)", "UNAUTHORIZED"],
    ["4/5 (the key was Unauthorised)", "the key was Unauthorised"],
    ["5/5 status 401", "5/5 status 401"],
  ])("stop at a rejected key: %s", (why, message) => {
    const [event] = retry(`Reconnecting... ${why}`);
    expect(event).toMatchObject({ type: "error", code: "AGENT_AUTH_REQUIRED", message });
  });
});
