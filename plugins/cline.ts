import { defineAcpAgent } from "../src/plugin.ts";

/**
 * Cline's CLI (npm `cline`) over the Agent Client Protocol: `cline --acp`. Checked against 3.0.65
 * (`cline --help`, its ACP traffic against the live lane's model stub; source read at 3.0.56).
 *
 * Nothing left running: by default Cline's sessions run in a hub, a daemon it starts detached
 * (`cline --cline-hub-daemon --port 25463`, observed to outlive `cline --acp`), which is why its
 * `--json` mode was set aside. CLINE_SESSION_BACKEND_MODE=local runs the session inside the ACP
 * process instead (no hub is started or joined), so what it starts ends with the run's process
 * group. CLINE_NO_AUTO_UPDATE=1: no `npm install` of a newer Cline as the run exits.
 *
 * State: Cline's own folder, ~/.cline (CLINE_DIR), as od keeps other ACP agents' state in theirs.
 * Checked at 3.0.65: `--data-dir` does nothing under `--acp` (state still lands in <config>/data);
 * `--config <dir>` is honoured, but Cline then reads its logins (Cline account, ClinePass,
 * ChatGPT) and a provider's base URL and models from <dir>/data/settings too, and a folder per run
 * would leave nothing for `--resume` (session/load) to load. So the runs use the user's folder,
 * and its sessions stay there. (CLINE_PROVIDER_SETTINGS_PATH could point a private folder's
 * logins back at the user's providers.json, models.json beside it.)
 *
 * Modes. The session offers `mode` plan/act and `auto_approve` (off unless `--auto-approve true`):
 * - read-only: `mode` plan (Cline drops its `editor` tool), auto-approve off: every other tool
 *   (run_commands stays offered) is asked, and od's read-only policy answers; a command that writes
 *   (a redirection) Cline refuses itself in plan mode, unasked.
 * - edit: `mode` act, auto-approve off: every tool is asked; od's policy allows reads and edits
 *   inside the working directory. `spawn_agent` says `think`, but its sub-agent runs its tools
 *   unasked (observed), so od treats it as a command (denied below full); `editor` names its file
 *   only in its input (`path`); `apply_patch` (GPT models) names none, so edit mode denies it.
 * - full: `--auto-approve true`.
 *
 * No effort (`--thinking` is ignored under `--acp`); models are the session's `model` option.
 * Images: it advertises them, but its ACP server sends the model only the prompt's text.
 */
export default defineAcpAgent({
  id: "cline",
  name: "Cline",
  login: "run `cline auth` (Cline account, ClinePass or ChatGPT), or set CLINE_PROVIDER and CLINE_API_KEY",
  homepage: "https://cline.bot",
  install: "npm install -g cline",
  bin: "cline", // `cline --version` prints the bare version ("3.0.65").
  state: [
    "{CLINE_DIR:-.cline}/", // data/settings (logins, models.json), data/sessions, data/db, data/logs, data/cache (observed)
    "{CLINE_DATA_DIR}/", // its data folder, when moved (paths.ts: resolveClineDataDir)
  ],
  detect: { configDir: ".cline", npmPackage: "cline", minVersion: "3.0.56", auth: { envKeys: ["CLINE_API_KEY"] } },
  capabilities: { resume: true, readOnly: true },
  argv: (ctx) => ["--acp", "--auto-approve", ctx.mode === "full" ? "true" : "false"],
  env: { CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" },
  modes: { "read-only": "plan", edit: "act" },
  // Cline's tools by name (its ACP titles start "name: …"); the kinds are Cline's own but where noted.
  tools: {
    read_files: { kind: "read" },
    search_codebase: { kind: "search" },
    fetch_web_content: { kind: "fetch" },
    run_commands: { kind: "execute" },
    editor: { kind: "edit", paths: ["path"] },
    apply_patch: { kind: "edit" }, // Cline: other; its files are named only inside the patch text
    spawn_agent: { kind: "execute" }, // Cline: think, but its sub-agent runs tools unasked
  },
});
