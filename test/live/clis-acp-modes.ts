// The ACP modes of CLIs the lane already installs (issue 21): the same package and setup as the
// base CLI, driven through its `-acp` adapter; and Qoder CLI, whose ACP mode stops at its login.
import type { LiveCli } from "./clis.ts";

type Variant = (base: string, id: string, over: Partial<LiveCli>) => LiveCli;

/** No Qoder turn can run offline: every scenario that needs one says why. */
const QODER_OFFLINE =
  "qodercli refuses session/new without a Qoder account (checked online; custom endpoints need it too), so no turn reaches the stub";
const QODER_CANNOT: Partial<Record<string, string>> = {
  ...Object.fromEntries(
    [
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
      "edit-denies-shell",
    ].map((name) => [name, QODER_OFFLINE]),
  ),
  cancel:
    "the lane cancels at a stalled model request, which qodercli never makes; cancelled by hand during its login check: exit 130, no process left",
};

/** The entries, made with clis.ts's `acpVariantOf` (passed in: clis.ts imports this file). */
export function acpModes(variant: Variant): LiveCli[] {
  return [
    variant("copilot", "copilot-acp", {
      asksPermission: true,
      shellTool: { name: "bash", args: (command) => ({ command, description: "Write a file" }) },
      cannot: {
        "auth-failure":
          'Copilot over ACP reports a rejected key as assistant text ("Error: Authentication failed with provider … (HTTP 401)") and end_turn',
      },
    }),
    variant("opencode", "opencode-acp", {
      asksPermission: true,
      shellTool: { name: "bash", args: (command) => ({ command, description: "Write a file" }) },
      // The session's model option; OpenCode's effort option is not set over ACP (efforts: []).
      choice: { model: "odstub/stub-model", expectModel: /^stub-model$/ },
      cannot: {
        "read-only-pushy":
          "OpenCode answers a call to a tool plan mode did not offer through its `invalid` tool, reported as completed, not failed (nothing is written)",
      },
    }),
    variant("kimi", "kimi-acp", {
      // Full mode only: Kimi's permission requests name no kind or path, so od cannot allow edits (plugins/kimi-acp.ts).
      mode: "full",
      shellTool: { name: "Bash", args: (command) => ({ command, description: "Write a file" }) },
      cannot: {
        usage: "kimi acp reports no token usage (its session/prompt result carries only the stopReason)",
        "edit-denies-shell": "od runs kimi-acp in read-only or full mode only: Kimi's permission requests name no kind or path",
      },
    }),
    {
      id: "qoder-acp",
      pkg: "@qoder-ai/qodercli",
      version: "1.1.52",
      bin: "qodercli",
      writeTool: "Write",
      // Nothing to point at the stub: the fresh HOME has no Qoder login, which is the case proven.
      setup: () => ({}),
      choice: { model: "auto", expectModel: /./ },
      cannot: QODER_CANNOT,
      loginHint: /qodercli login/,
    },
  ];
}
