import { classifyStderr, defineAdapter, defineLinesProtocol, flag, type InvokeContext, mcpServersObject } from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Tools that run commands. Edit mode denies them: acceptEdits alone lets Claude run "filesystem"
 * commands such as `printf … > file` unasked (checked with 2.1.332), and edit mode allows file
 * edits, not commands. A model that asks for one gets Claude's own refusal as the tool's result.
 */
const COMMAND_TOOLS = "Bash,PowerShell";
/** Tools that change files or run commands; read-only runs deny them on top of plan mode. */
const MUTATING_TOOLS = `Write,Edit,MultiEdit,NotebookEdit,${COMMAND_TOOLS}`;

/**
 * The run's MCP servers as a `--mcp-config` file in the run's private folder (variables and headers
 * may be credentials: never a JSON string in argv). In full mode added to the servers Claude loads from
 * the user's and the project's config, as every other CLI od gives servers to and Claude Code's own ACP
 * bridge do; in read-only and edit the only ones (CONFINED). Claude asks before an MCP tool
 * unless its settings or --allowedTools allow it, and headless (-p) that is a denial; od pre-approves
 * none. `--mcp-config <configs...>` takes every word up to the next flag, so a flag always follows.
 */
function mcp(ctx: InvokeContext): { argv: string[]; files?: Record<string, string> } {
  if (!ctx.mcpServers) return { argv: [] };
  const config = { mcpServers: mcpServersObject(ctx.mcpServers, "claude") };
  return { argv: ["--mcp-config", `${ctx.filesDir}/mcp.json`], files: { "mcp.json": JSON.stringify(config) } };
}

/**
 * What the folder's own settings may not add in read-only and edit, where od is often in someone
 * else's repository: hooks (commands, which these modes deny) and MCP servers other than the run's
 * (processes the agent starts; `-p` skips Claude's trust prompt, so a repository's
 * `enableAllProjectMcpServers` starts its `.mcp.json` unasked). Checked with 2.1.332 against the
 * loopback model: a repository's hook ran under plan mode and its server started; with these, neither,
 * while CLAUDE.md and the folder's skills and agents (od's native skills and roles) still loaded,
 * which `--setting-sources user` would drop. In 2.0.0's --help and code; a version without them
 * gets neither, and the kernel still holds the mode.
 */
const CONFINED = ["--strict-mcp-config", "--settings", JSON.stringify({ disableAllHooks: true })];

const PERMISSIONS = {
  "read-only": ["--permission-mode", "plan", "--disallowedTools", MUTATING_TOOLS],
  edit: ["--permission-mode", "acceptEdits", "--disallowedTools", COMMAND_TOOLS],
  full: ["--permission-mode", "bypassPermissions"],
} as const;

export default defineAdapter({
  id: "claude",
  ...AGENT,
  homepage: "https://github.com/anthropics/claude-code",
  install: "npm install -g @anthropic-ai/claude-code",
  bin: "claude",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  // `claude --help`: "an alias for the latest model (e.g. 'fable', 'opus', or 'sonnet') or a model's full name".
  models: ["fable", "opus", "sonnet"],
  // Claude Code's own files, seen in a live run (fresh HOME, strace): projects/<cwd>/<session>.jsonl,
  // sessions/, backups/, plugins/ under ~/.claude, and ~/.claude.json, which it replaces by a temp file
  // and a rename beside it in HOME (.claude.json.tmp.*, .claude.json.lock): refused those, it writes the
  // file in place, so a sandboxed run still keeps it (a missing .claude.json stays missing).
  state: [
    "{CLAUDE_CONFIG_DIR:-.claude}/", // sessions, settings, backups (observed); CLAUDE_CONFIG_DIR moves it, .claude.json too (docs: settings, environment variables)
    ".claude.json", // global config and per-project state (observed); granted only when it exists
    "{XDG_DATA_HOME:-.local/share}/claude", // the native installer's versions/ it updates (claude binary: "claude","versions"); only when present
    "{XDG_STATE_HOME:-.local/state}/claude", // the native installer's locks (agent-safehouse profiles/60-agents/claude-code.sb); only when present
  ],
  // Its user settings name hooks, a key helper and a status line, commands it runs in every later session;
  // versions/ holds the native installer's binaries (a run's auto-update then waits for a run outside od).
  lockedState: ["{CLAUDE_CONFIG_DIR:-.claude}/settings.json", "{XDG_DATA_HOME:-.local/share}/claude/versions"],
  detect: {
    configDir: ".claude",
    npmPackage: "@anthropic-ai/claude-code",
    // Since 1.0.109 (its changelog; 2.1.332's --help lists it): the version tells, no `--help` runs.
    help: {
      args: ["--help"],
      flags: ["--include-partial-messages", "--strict-mcp-config"],
      since: { "--include-partial-messages": "1.0.109", "--strict-mcp-config": "2.0.0" },
    },
    auth: {
      envKeys: [
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "CLAUDE_CODE_USE_BEDROCK",
        "CLAUDE_CODE_USE_VERTEX",
        "CLAUDE_CODE_USE_FOUNDRY",
      ],
      // An OAuth login on Linux and Windows (macOS keeps it in the keychain, where the probe finds it), a key
      // helper in settings, or a key `/login` saved in its config (what 2.1.332's binary reads).
      files: [
        { path: "{CLAUDE_CONFIG_DIR:-.claude}/.credentials.json", key: "claudeAiOauth" },
        { path: "{CLAUDE_CONFIG_DIR:-.claude}/settings.json", key: "apiKeyHelper" },
        { path: "{CLAUDE_CONFIG_DIR:-.}/.claude.json", key: "primaryApiKey" },
      ],
      // `claude auth status --json` prints {"loggedIn": true|false, ...}.
      args: ["auth", "status", "--json"],
      classify: (output) => {
        const m = output.match(/"loggedIn"\s*:\s*(true|false)/);
        return m ? (m[1] === "true" ? "ok" : "missing") : "unknown";
      },
    },
  },
  efforts: ["low", "medium", "high", "xhigh", "max"],
  capabilities: { streaming: true, resume: true, readOnly: true, roles: true, allowedTools: true, mcpServers: true, skills: "native" },
  skillTarget: ".claude/skills",
  // Sub-agent definitions; `--agent <name>` runs the session as one.
  roleTarget: ".claude/agents/{name}.md",
  // `-p` with no prompt argument reads the prompt from stdin.
  prompt: { via: "stdin" },
  invoke: (ctx) => {
    const servers = mcp(ctx);
    return {
      argv: [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        // Older versions lack it; without it the complete assistant records still carry everything.
        ...(ctx.flags && !ctx.flags.has("--include-partial-messages") ? [] : ["--include-partial-messages"]),
        ...flag("--model", ctx.model),
        ...flag("--effort", ctx.effort),
        ...flag("--resume", ctx.resume),
        ...flag("--agent", ctx.role),
        ...flag("--allowedTools", ctx.allowedTools?.join(",")),
        ...servers.argv,
        ...(ctx.mode === "full" || (ctx.flags && !ctx.flags.has("--strict-mcp-config")) ? [] : CONFINED),
        ...PERMISSIONS[ctx.mode],
      ],
      stdin: ctx.prompt,
      ...(servers.files ? { files: servers.files } : {}),
    };
  },
  protocol: defineLinesProtocol({ createState, parse }),
  classify: ({ stderrTail }) => {
    if (/cannot be used with root\/sudo/i.test(stderrTail))
      return {
        code: "INVALID_REQUEST",
        message: "Claude Code refuses --mode full (bypass permissions) when run as root",
        hint: "Run od as a normal user, use --mode edit, or set IS_SANDBOX=1 if this is a disposable sandbox.",
      };
    // An organization's managed MCP config (managed-mcp.json) makes Claude refuse the flag od's
    // read-only and edit modes pass (CONFINED); the text is 2.1.332's.
    if (/cannot use --strict-mcp-config when an enterprise MCP config is present/i.test(stderrTail))
      return {
        code: "INVALID_REQUEST",
        message: "Claude Code refuses to leave out MCP servers here: your organization manages its MCP config",
        hint: "od's read-only and edit modes run Claude with only the run's MCP servers. Use --mode full to run it with your organization's servers.",
      };
    return classifyStderr(stderrTail, AGENT);
  },
});
