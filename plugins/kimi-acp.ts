import { defineAcpAgent } from "../src/plugin.ts";
import kimi from "./kimi/index.ts";
import { AGENT } from "./kimi/parse.ts";

/**
 * Kimi Code over the Agent Client Protocol: `kimi acp` ("Run kimi-code as an Agent Client Protocol
 * (ACP) server over stdio"). The same CLI, config and login as the `kimi` adapter, whose facts it
 * reuses. Checked against 2.1.0 in the live lane.
 *
 * Its session's `mode` option is default ("Manual approvals"), plan ("Read-only planning; no tool
 * execution"), auto and yolo; od sets it before the prompt (the driver fails closed if Kimi does
 * not offer or refuses it): plan for read-only, yolo for full.
 *
 * No edit mode: in its default mode Kimi does ask before every edit and command, but its
 * session/request_permission names neither the tool's kind nor its path (only a title, "Write",
 * and "Requesting approval to Writing hello.txt"), so od's policy, which allows an edit only inside
 * the working directory, cannot tell an edit from anything else and would deny them all. Its
 * "auto" mode runs routine commands unasked. Kimi runs here in read-only and full mode.
 */
export default defineAcpAgent({
  id: "kimi-acp",
  name: "Kimi Code (ACP)",
  login: AGENT.login,
  homepage: kimi.homepage,
  install: kimi.install,
  bin: kimi.bin,
  version: kimi.version,
  state: kimi.state, // the same CLI (observed: the same folder in a live ACP run)
  detect: { configDir: ".kimi-code", npmPackage: "@moonshot-ai/kimi-code" },
  // The session's `model` option lists the configured aliases; od selects among them over ACP.
  // Images go as ACP image blocks (promptCapabilities.image); session/load takes a session back.
  capabilities: { images: true, resume: true, readOnly: true, edit: false },
  argv: ["acp"],
  modes: { "read-only": "plan", full: "yolo" },
  classify: kimi.classify,
});
