/**
 * How adapters classify the failures their real CLIs print on stderr (exit 1, nothing useful on
 * stdout): the texts below were captured from Kimi Code 2.1.0 and Amp 0.0.1790142911 against a
 * loopback stub or an unreachable server, with temp paths rewritten.
 */
import { describe, expect, test } from "bun:test";
import amp from "../../plugins/amp/index.ts";
import claude from "../../plugins/claude/index.ts";
import kimi from "../../plugins/kimi/index.ts";
import type { Adapter } from "../../src/core/contract/adapter.ts";
import type { OdEvent } from "../../src/core/contract/events.ts";

function classify(adapter: Pick<Adapter, "classify">, stderrTail: string, rawLines: string[] = []) {
  const events = rawLines.map((line, seq): OdEvent => ({ type: "raw", stream: "stdout", line, runId: "r", seq, ts: 0 }));
  return adapter.classify?.({ exitCode: 1, signal: null, stderrTail, events });
}

const KIMI_LOG = "See log: /home/user/.kimi-code/logs/kimi-code.log\n";

describe("kimi", () => {
  test("a rejected key is AGENT_AUTH_REQUIRED with the login hint", () => {
    const c = classify(kimi, `error: failed to run prompt: provider.auth_error: 401 Invalid API key (model stub)\n${KIMI_LOG}`);
    expect(c).toMatchObject({ code: "AGENT_AUTH_REQUIRED", message: "provider.auth_error: 401 Invalid API key (model stub)" });
    expect(c?.hint).toContain("kimi login");
  });

  test("no configured model means not logged in", () => {
    const c = classify(
      kimi,
      `error: failed to run prompt: No model configured. Run \`kimi\` and use /login to sign in, then retry; or set default_model in config.toml.\n${KIMI_LOG}`,
    );
    expect(c?.code).toBe("AGENT_AUTH_REQUIRED");
  });

  test("an unknown model alias is MODEL_NOT_AVAILABLE", () => {
    expect(classify(kimi, `error: failed to run prompt: Model "nope/nope" is not configured in config.toml.\n${KIMI_LOG}`)?.code).toBe(
      "MODEL_NOT_AVAILABLE",
    );
  });

  test("a session from another directory is INVALID_REQUEST with what to do", () => {
    const tail = `Session "session_877a" was created under a different directory.\n  cd "/work/other" && kimi -r session_877a\n\nerror: failed to run prompt: Session "session_877a" was created under a different directory.\n${KIMI_LOG}`;
    const c = classify(kimi, tail);
    expect(c?.code).toBe("INVALID_REQUEST");
    expect(c?.hint).toContain("--cwd");
  });

  test("stderr without Kimi's error line is left to the generic crash report", () => {
    expect(classify(kimi, "some log line\n")).toBeUndefined();
  });
});

describe("amp", () => {
  test("a rejected key is AGENT_AUTH_REQUIRED", () => {
    const c = classify(amp, "Error: Invalid or missing API key. Run 'amp login' to authenticate.\n");
    expect(c?.code).toBe("AGENT_AUTH_REQUIRED");
    expect(c?.hint).toContain("amp login");
  });

  test("no key at all: the login flow on stdout and its failure on stderr", () => {
    const raw = ["No API key found. Starting login flow...", "If your browser does not open automatically, visit:"];
    expect(
      classify(amp, "\nLogin failed: That code looks incomplete. Copy the full code from the browser and try again.\n", raw)?.code,
    ).toBe("AGENT_AUTH_REQUIRED");
  });

  test("an unreachable Amp server names the server", () => {
    const c = classify(
      amp,
      "Error: Couldn't connect to the Amp server at http://127.0.0.1:9.\n\nRun `pnpm dev` to start the local server, then try again.\n",
    );
    expect(c).toMatchObject({ code: "AGENT_ERROR", message: "Couldn't connect to the Amp server at http://127.0.0.1:9." });
    expect(classify(amp, "Error: Cannot reach Amp servers. Are you offline?\n")?.message).toBe(
      "Cannot reach Amp servers. Are you offline?",
    );
  });
});

describe("claude", () => {
  test("an organization's managed MCP config refuses read-only and edit's --strict-mcp-config: said, with the way out", () => {
    // 2.1.332's text (its binary) when a managed-mcp.json is present.
    const c = classify(claude, "You cannot use --strict-mcp-config when an enterprise MCP config is present\n");
    expect(c).toMatchObject({ code: "INVALID_REQUEST", hint: expect.stringContaining("--mode full") });
    expect(classify(claude, "some log line\n")?.code).not.toBe("INVALID_REQUEST");
  });
});
