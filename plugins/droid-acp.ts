import { defineAcpAgent } from "../src/plugin.ts";
import droid from "./droid/index.ts";

/**
 * Factory Droid over the Agent Client Protocol: `droid exec --output-format acp` (acpx's registry;
 * `droid exec --help`: "-o, --output-format <format>", which takes `acp`). The same binary, config
 * and skills as the `droid` adapter. Proven against 0.225.2 in the live lane, with a custom model
 * (~/.factory/settings.json `customModels`) on the model stub: unlike `droid exec`, its ACP server
 * answers session/new "Authentication required" without a Factory login or FACTORY_API_KEY, even
 * for a custom model (the lane sets a made-up key, which offline is never checked).
 *
 * Modes. The session's `autonomy_level` option (normal "Auto (Off)", spec, auto-low, auto-medium,
 * auto-high) is set before the prompt; the driver fails closed if Droid does not offer it. Tool
 * flags on the command line (`--remove-tools`) do not reach an ACP session (checked live).
 * - read-only: `spec` ("Build feature specs (read-only)"): Droid refuses its write tools itself
 *   and asks before a command even the model rates low-risk (checked live), which od's read-only
 *   policy denies;
 * - edit: `normal` ("Auto (Off)"): Droid asks before every edit and command, and od's policy answers
 *   (edits inside the working directory, no commands). Its session/request_permission names no
 *   path; the tool_call update just before it does, and od's ACP driver takes it from there (the
 *   same call). `auto-low` is not used: it runs commands the MODEL rates low-risk unasked (checked
 *   live: `printf … > file` ran);
 * - full: `auto-high` ("Auto-approves all actions"), and od allows whatever is asked.
 *
 * Resume is session/load (the agent advertises loadSession): offline too, unlike `droid exec -s`
 * (checked live). Each message comes whole (one agent_message_chunk) and no usage is reported.
 */
const MODES = {
  "read-only": { configId: "autonomy_level", value: "spec" },
  edit: { configId: "autonomy_level", value: "normal" },
  full: { configId: "autonomy_level", value: "auto-high" },
};

export default defineAcpAgent({
  id: "droid-acp",
  name: "Factory Droid (ACP)",
  login: "run `droid` and sign in, or set FACTORY_API_KEY (a custom model takes its apiKey from ~/.factory/settings.json)",
  homepage: "https://docs.factory.ai/cli/getting-started/overview",
  install: "npm install -g @factory/cli",
  bin: "droid", // `droid --version` prints the bare version ("0.225.2").
  state: droid.state, // the same binary (observed: the same folder in a live ACP run)
  detect: { configDir: ".factory", npmPackage: "@factory/cli", auth: { envKeys: ["FACTORY_API_KEY"] } },
  // The session's `model` option lists Factory's models and the custom ones (`custom:<name>-<n>`); od selects over ACP.
  // Images go as ACP image blocks (promptCapabilities.image); Droid loads .factory/skills/<name>/SKILL.md.
  capabilities: { images: true, resume: true, readOnly: true, skills: "native" },
  skillTarget: ".factory/skills",
  argv: ["exec", "--output-format", "acp"],
  modes: MODES,
});
