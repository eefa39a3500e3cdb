import { defineAcpAgent } from "../src/plugin.ts";

/**
 * TRAE CLI (ByteDance's `traecli`, not from npm) over the Agent Client Protocol: `traecli acp
 * serve`, as its ACP page and acpx's registry write it. Its ACP page: "traecli [global flags] acp
 * serve [server flags]", global flags before `acp serve`; `--permission-mode <MODE>` sets the ACP
 * session's initial permission mode (default, auto, bypass_permissions).
 *
 * How it is proven: from the ACP spec and TRAE CLI's documentation (its ACP, permission-mode and
 * tool-permission pages); not run here: TRAE CLI is not on npm and needs a TRAE login. The
 * fixtures in test/fixtures/trae are protocol-shaped, not captured (see their README.md).
 *
 * Modes:
 * - edit: `--permission-mode default`, TRAE's asking mode: what it asks goes to od's policy
 *   (edits inside the working directory only, no commands).
 * - full: `--permission-mode bypass_permissions` (od also allows whatever is still asked). Not
 *   `acp serve --yolo`, which also turns TRAE's sandbox off.
 * - read-only: refused: TRAE documents no read-only mode for ACP sessions.
 * No resume: session/load is not documented for TRAE's ACP server.
 */
const PERMISSION_MODE = { "read-only": "default", edit: "default", full: "bypass_permissions" } as const;

export default defineAcpAgent({
  id: "trae",
  name: "TRAE CLI",
  login: "run `traecli` and sign in (or configure a login token)",
  homepage: "https://www.volcengine.com/docs/86677/2227871",
  install: "install TRAE CLI with TRAE's own installer (its docs: Quick start)",
  bin: "traecli",
  // $TRAE_HOME, by default ~/.trae, holds traecli.toml.
  state: [
    "{TRAE_HOME:-.trae}/", // traecli.toml, sessions and logs: TRAE CLI's home ($TRAE_HOME, by default ~/.trae; its Quick start docs)
  ],
  detect: { configDir: ".trae" },
  capabilities: { resume: false, readOnly: false },
  argv: (ctx) => ["--permission-mode", PERMISSION_MODE[ctx.mode], "acp", "serve"],
});
