// The npm coding-agent CLIs added for issue 21 (Droid, Continue), each pinned and
// pointed at the loopback model stub through its own custom-provider settings. Spread into CLIS.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LiveCli } from "./clis.ts";

/** Droid's BYOK model for the stub (~/.factory/settings.json customModels): selected as `custom:<model>`. */
function droidSetup(stubUrl: string, home: string): Record<string, string> {
  const dir = join(home, ".factory");
  mkdirSync(dir, { recursive: true });
  const model = (id: string, displayName: string) => ({
    model: id,
    displayName,
    baseUrl: `${stubUrl}/v1`,
    apiKey: "od-live-not-a-key",
    provider: "generic-chat-completion-api",
    maxOutputTokens: 4096,
  });
  const settings = {
    customModels: [model("stub-model", "Stub"), model("stub-other", "Stub Other")],
    sessionDefaultSettings: { model: "custom:stub-model" },
  };
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings, null, 2));
  return { DROID_DISABLE_AUTO_UPDATE: "1" };
}

/** Continue's local config (~/.continue/config.yaml): one OpenAI-compatible model per stub model. */
function continueSetup(stubUrl: string, home: string): Record<string, string> {
  const dir = join(home, ".continue");
  mkdirSync(dir, { recursive: true });
  const model = (name: string) =>
    [`  - name: ${name}`, "    provider: openai", `    model: ${name}`, `    apiBase: ${stubUrl}/v1`, "    apiKey: od-live-not-a-key"]
      .concat(["    roles: [chat, edit, apply]", "    capabilities: [tool_use]"])
      .join("\n");
  const config = ["name: odstub", "version: 1.0.0", "schema: v1", "models:", model("stub-model"), model("stub-other")];
  writeFileSync(join(dir, "config.yaml"), `${config.join("\n")}\n`);
  return { CONTINUE_TELEMETRY_ENABLED: "0" };
}

export const NEW_CLIS: LiveCli[] = [
  {
    id: "droid",
    // @factory/cli 0.225.1 wants @factory/cli-linux-x64@0.225.1, which the registry does not have; its
    // binary is published one patch above (0.225.2). The lane installs that package and runs its binary.
    pkg: "@factory/cli-linux-x64",
    version: "0.225.2",
    bin: "droid",
    binSubdir: join("node_modules", "@factory", "cli-linux-x64", "bin"),
    writeTool: "Create",
    setup: droidSetup,
    choice: { model: "custom:stub-other", expectModel: /^stub-other$/ },
    shellTool: { name: "Execute", args: (command) => ({ command, riskLevel: "low", riskLevelReason: "writes a file" }) },
    cannot: {
      "stream-chunks": "droid exec --output-format stream-json gives each message whole, not in deltas",
      resume: "droid exec -s fetches the session from api.factory.ai: offline it exits 1 with nothing on stdout",
    },
    // Resumable with a Factory login: the chat scenario still expects run.finished to say so.
    resumesOnline: true,
    loginHint: /FACTORY_API_KEY|droid/,
  },
  {
    id: "continue",
    pkg: "@continuedev/cli",
    version: "1.5.47",
    bin: "cn",
    writeTool: "Write",
    setup: continueSetup,
    choice: { model: "stub-other", expectModel: /^stub-other$/ },
    cannot: {
      chat: "cn -p --format json prints one final record: no session id, no usage and no deltas reach stdout",
      "tool-edit": "cn -p shows no tool calls (the file is written: checked by hand against the stub)",
      "read-only-pushy": "cn ends the turn with no output at all when the model calls an excluded tool",
      resume: "cn resumes only its last session (--resume) and prints no session id",
      "model-effort": "cn --model takes a Continue Hub slug, which needs the hub; cn has no effort flag",
      thinking: "cn -p --format json carries no thinking",
    },
    loginHint: /config\.yaml|cn login/,
  },
  {
    // The same droid binary over ACP. Its ACP server wants a Factory login even for a custom model: a made-up
    // FACTORY_API_KEY passes (offline it is never checked). Custom models are listed as `custom:<name>-<n>`.
    id: "droid-acp",
    pkg: "@factory/cli-linux-x64",
    version: "0.225.2",
    bin: "droid",
    binSubdir: join("node_modules", "@factory", "cli-linux-x64", "bin"),
    writeTool: "Create",
    setup: (stubUrl, home) => ({
      ...droidSetup(stubUrl, home),
      FACTORY_API_KEY: "fk-od-live-not-a-key",
    }),
    choice: { model: "Stub Other", expectModel: /^stub-other$/ },
    asksPermission: true,
    shellTool: { name: "Execute", args: (command) => ({ command, riskLevel: "low", riskLevelReason: "writes a file" }) },
    cannot: {
      "stream-chunks": "droid's ACP server sends each message whole, in one agent_message_chunk",
      usage: "droid's ACP server sends no usage_update and no usage in its prompt result",
    },
    loginHint: /FACTORY_API_KEY|droid/,
  },
  {
    // Every Qodo turn goes through Qodo's servers (api.ng.command.qodo.ai): the fresh HOME has no key, the case proven.
    id: "qodo",
    pkg: "@qodo/command",
    version: "0.36.0",
    bin: "qodo",
    writeTool: "write_file",
    setup: () => ({}),
    choice: { model: "gpt-5.4", expectModel: /./ },
    cannot: Object.fromEntries(
      [
        "chat",
        "cancel",
        "tool-edit",
        "read-only",
        "read-only-pushy",
        "read-only-kernel",
        "resume",
        "model-effort",
        "unknown-record",
        "skill",
        "thinking",
      ].map((s) => [
        s,
        "qodo runs every turn through Qodo's account server (no key: exit 1 before any model request), so no turn reaches the stub",
      ]),
    ),
    // cancel: test/adapters/qodo.test.ts cancels a hanging fake; the real CLI exits before the lane can cancel it.
    loginHint: /qodo login|QODO_API_KEY/,
  },
];
