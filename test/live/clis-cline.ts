// Cline (issue 32), pinned and pointed at the loopback model stub through its OpenAI-compatible
// provider, from a fresh HOME. Spread into CLIS.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LiveCli } from "./clis.ts";

/**
 * What `cline auth -p openai -k <key> -m stub-model -b <url>` writes (3.0.65, checked), and a
 * models.json beside it: the session's `model` option lists a provider's models from there (without
 * it, openai-compatible lists only gpt-4o). Over ACP the provider and key come from the
 * environment (CLINE_PROVIDER, CLINE_API_KEY); the base URL and models from these files.
 */
function clineSetup(stubUrl: string, home: string): Record<string, string> {
  const dir = join(home, ".cline", "data", "settings");
  mkdirSync(dir, { recursive: true });
  const settings = { provider: "openai-compatible", apiKey: "od-live-not-a-key", model: "stub-model", baseUrl: `${stubUrl}/v1` };
  const providers = {
    version: 1,
    lastUsedProvider: "openai-compatible",
    modes: {},
    providers: { "openai-compatible": { settings, updatedAt: new Date(0).toISOString(), tokenSource: "manual" } },
  };
  writeFileSync(join(dir, "providers.json"), JSON.stringify(providers, null, 2));
  const models = { "stub-model": { name: "stub-model", supportsReasoning: true }, "stub-other": { name: "stub-other" } };
  writeFileSync(join(dir, "models.json"), JSON.stringify({ version: 1, providers: { "openai-compatible": { models } } }, null, 2));
  return { CLINE_PROVIDER: "openai-compatible", CLINE_API_KEY: "od-live-not-a-key", CLINE_MODEL: "stub-model" };
}

export const CLINE_CLIS: LiveCli[] = [
  {
    id: "cline",
    pkg: "cline",
    version: "3.0.65",
    bin: "cline",
    // What a global install puts on PATH: the package's Node launcher, which runs the native binary of
    // @cline/cli-<platform> (a local install links that binary itself into node_modules/.bin).
    binSubdir: join("node_modules", "cline", "bin"),
    writeTool: "editor",
    setup: clineSetup,
    choice: { model: "stub-other", expectModel: /^stub-other$/ },
    asksPermission: true,
    shellTool: { name: "run_commands", args: (command) => ({ commands: [command] }) },
    cannot: {
      usage: "cline --acp forwards no usage (its ACP bridge drops the runtime's usage events; the prompt result has only the stopReason)",
    },
    loginHint: /cline auth|CLINE_API_KEY/,
  },
];
