import { defineAcpAgent } from "../src/plugin.ts";

/**
 * OpenClaw over the Agent Client Protocol: `openclaw acp`, a bridge to the user's running OpenClaw
 * Gateway (WebSocket, 127.0.0.1:18789 unless configured). The agent, its model, tools and
 * approvals live in the Gateway; the bridge tells it the working directory by prefixing the
 * prompt with it. Each od run is its own Gateway session (no `--session`, so no shared
 * `agent:main:main`). No tested resume. The Gateway's own approvals decide what runs, so no flag
 * holds read-only or edit: od offers those modes only where its kernel sandbox holds them. (The
 * kernel holds the bridge and what it starts; a Gateway already running outside od is the user's.)
 */
export default defineAcpAgent({
  id: "openclaw",
  name: "OpenClaw",
  login: "run `openclaw onboard`, then keep the Gateway running (`openclaw gateway`)",
  homepage: "https://openclaw.ai",
  install: "npm install -g openclaw",
  bin: "openclaw", // `openclaw --version` prints "OpenClaw 2026.9.6 (eb377ac)".
  // The bridge hands every turn to the Gateway, a process od does not start; its own writes are
  // OpenClaw's state folder (docs.openclaw.ai/help/environment). Its log goes to /tmp/openclaw/,
  // whatever TMPDIR says (docs.openclaw.ai/logging), which the sandbox refuses.
  state: [
    "{OPENCLAW_STATE_DIR:-.openclaw}/", // openclaw.json, .env, sessions, credentials (docs.openclaw.ai/help/environment)
    "{OPENCLAW_HOME}/.openclaw/", // the same folder under the home OPENCLAW_HOME names (ditto)
  ],
  detect: { configDir: ".openclaw", timeoutMs: 15_000 },
  capabilities: { resume: false, images: true, readOnly: false, edit: false },
  argv: ["acp"],
  classify: (ctx, byStderr) => {
    // With no Gateway listening the bridge exits 1 at once: "ACP bridge failed: connect ECONNREFUSED 127.0.0.1:18789".
    const bridge = ctx.stderrTail.match(/ACP bridge failed: (.+)/)?.[1];
    if (!bridge) return byStderr(ctx);
    const message = `OpenClaw's ACP bridge could not reach the Gateway (${bridge.trim()})`;
    return { code: "AGENT_ERROR", message, hint: "Start it with `openclaw gateway` (or `openclaw daemon start`), then run again." };
  },
});
