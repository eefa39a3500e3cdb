import { defineAcpAgent } from "../src/plugin.ts";
import { AGENT, CLI } from "./qwen/parse.ts";

/**
 * Qwen Code over the Agent Client Protocol (`qwen --acp`). Its own default in ACP mode writes
 * without asking, so edit mode passes `--approval-mode default` explicitly: Qwen then asks, and
 * od's policy answers (edits inside the working directory only).
 */
const APPROVAL_MODE = { "read-only": "plan", edit: "default", full: "yolo" } as const;

export default defineAcpAgent({
  id: "qwen-acp",
  name: "Qwen Code (ACP)",
  login: AGENT.login,
  ...CLI,
  detect: { configDir: ".qwen", npmPackage: "@qwen-code/qwen-code", auth: { envKeys: ["OPENAI_API_KEY"] } },
  // Images go as ACP image blocks (the agent advertises promptCapabilities.image).
  capabilities: { images: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "QWEN.md",
  roleTarget: "QWEN.md",
  // The model goes through ACP (session/set_model, by id or display name), where Qwen lists its models.
  argv: (ctx) => ["--acp", "--approval-mode", APPROVAL_MODE[ctx.mode]],
});
