import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Mux (Coder's agent workspace app, `mux`) over the Agent Client Protocol: `mux acp`. acpx's
 * registry runs it as `npx -y mux@^0.28.0 acp`, but npm's `mux` is an unrelated package (a stream
 * multiplexer, latest 0.0.2; no 0.28 exists there), so od runs an installed `mux` and does not
 * fetch one.
 *
 * How it is proven: from the ACP spec and acpx's registry entry; not run here: no `mux` that
 * speaks ACP installs from npm. The fixtures in test/fixtures/mux are protocol-shaped, not
 * captured (see their README.md).
 *
 * Modes: nothing documented says that `mux acp` asks before it edits or runs a command, and no
 * read-only mode is documented for its ACP sessions, so its flags hold neither: od offers read-only
 * and edit only where its kernel sandbox holds them. In full mode od allows whatever it does ask.
 * No resume: session/load is not documented.
 */
export default defineAcpAgent({
  id: "mux",
  name: "Mux",
  login: "open Mux and configure a provider",
  homepage: "https://github.com/coder/mux",
  install: "install Mux from https://github.com/coder/mux (its `mux` command)",
  bin: "mux",
  // Mux keeps everything in one folder: sessions/, logs/, src/ (worktrees); newer builds call it
  // ~/.xum and keep ~/.mux as a legacy home (github.com/coder/mux: src/common/constants/paths.ts).
  // Neither is made here: an empty ~/.mux would become a newer build's home.
  state: [".mux", ".xum", "{MUX_ROOT}/", "{XUM_ROOT}/"],
  detect: { configDir: ".mux" },
  capabilities: { resume: false, readOnly: false, edit: false },
  argv: ["acp"],
});
