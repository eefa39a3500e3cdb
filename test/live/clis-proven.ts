// The two adapters whose CLIs are on npm but cannot run a turn offline (issue 21): Qoder CLI and
// Amp, each insisting on its own account server. The lane runs them from a fresh HOME with no
// login and no network, so every turn scenario says why it cannot run; the missing-login error
// runs here against the real binary, and detection and cancel in proven.test.ts. Spread into CLIS.
import type { LiveCli } from "./clis.ts";

/** Every scenario that needs a model turn, with the one reason the CLI cannot run it here. */
function noTurns(reason: string, extra: Partial<Record<string, string>> = {}): Partial<Record<string, string>> {
  const turns = [
    "chat",
    "tool-edit",
    "read-only",
    "read-only-pushy",
    "read-only-kernel",
    "resume",
    "model-effort",
    "unknown-record",
    "skill",
    "thinking",
  ];
  return { ...Object.fromEntries(turns.map((name) => [name, reason])), ...extra };
}

export const PROVEN_CLIS: LiveCli[] = [
  {
    id: "qoder",
    // Qoder's own login check (failing lookups of its account server, then a wait for a token) takes 10–15 s here.
    authReportedWithinMs: 30_000,
    pkg: "@qoder-ai/qodercli",
    version: "1.1.52",
    bin: "qodercli",
    writeTool: "Write",
    // Nothing to point at the stub: the fresh HOME has no Qoder login, which is the case proven.
    setup: () => ({}),
    choice: { model: "auto", expectModel: /./ },
    cannot: noTurns(
      "qodercli -p needs a Qoder account, checked online, before any model request (custom endpoints need it too), so no turn reaches the stub",
      {
        cancel: "the lane cancels at a stalled model request, which qodercli never makes: proven.test.ts cancels it during its login check",
      },
    ),
    loginHint: /qodercli login/,
  },
  {
    id: "amp",
    pkg: "@sourcegraph/amp",
    version: "0.0.1790142911-g7618fb",
    bin: "amp",
    writeTool: "create_file",
    // No AMP_API_KEY and the default AMP_URL (unreachable offline): Amp's login flow, the case proven.
    setup: () => ({}),
    choice: { model: "high", expectModel: /./ },
    cannot: noTurns(
      "amp runs its turns through Amp's own server API (AMP_URL: /api/internal, /api/thread-actors), which needs an Amp account, never a model API",
      {
        cancel:
          "the lane cancels at a stalled model request, which amp never makes: proven.test.ts cancels it while it waits on its server",
      },
    ),
    loginHint: /amp login/,
  },
];
