import { classifyStderr, defineAdapter, defineLinesProtocol, flag, type OdEventBody } from "../src/plugin.ts";

/**
 * DeepSeek TUI (`deepseek`, from the `deepseek-tui` crate; the npm package is now `codewhale`,
 * which still ships the `deepseek` name). Headless is `deepseek exec [--auto] <PROMPT>`: the
 * prompt is a required positional argument (clap), and stdout is plain assistant text while tool
 * notices ("tool: <name> (…)", "tool <name> completed: …") go to stderr, which od keeps as
 * diagnostics only. So every stdout line is answer text, and tool calls are not visible.
 * DeepSeek's Agent mode (exec without `--auto`) writes files without asking but asks before shell
 * and paid tools; `--auto` approves everything, so it is full mode only. Plan mode, the read-only
 * one, has no exec flag: od offers no read-only mode.
 */
const AGENT = { name: "DeepSeek TUI", login: "run `deepseek auth set --provider deepseek`, or set DEEPSEEK_API_KEY" };

export default defineAdapter({
  id: "deepseek",
  ...AGENT,
  homepage: "https://github.com/Hmbown/DeepSeek-TUI",
  install: "npm install -g codewhale",
  bin: "deepseek",
  // The renamed dispatcher; never the companion `deepseek-tui` binary, which has another argv.
  fallbackBins: ["codewhale"],
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  models: ["auto", "deepseek-v4-pro", "deepseek-v4-flash"],
  efforts: [], // reasoning effort is a TUI toggle, not an exec flag
  state: [
    "{DEEPSEEK_HOME:-.deepseek}/", // sessions/, audit.log, secrets/, tasks/, tool_outputs/ (github.com/Hmbown/DeepSeek-TUI at 1ca495f: crates/cli/src/metrics.rs, crates/tui/src/audit.rs)
  ],
  detect: { configDir: ".deepseek", auth: { envKeys: ["DEEPSEEK_API_KEY"] } },
  capabilities: { streaming: true, resume: false, readOnly: false, skills: "prompt" },
  prompt: { via: "argv", maxPromptArgBytes: 30_000 },
  invoke: (ctx) => ({
    // After "--": a prompt that starts with "-" is the prompt, not an option.
    argv: ["exec", ...(ctx.mode === "full" ? ["--auto"] : []), ...flag("--model", ctx.model), "--", ctx.prompt],
  }),
  protocol: defineLinesProtocol({
    format: "text",
    createState: () => ({}),
    // Lines arrive without their newline: put it back so the answer keeps its shape.
    parse: (line): OdEventBody[] => [{ type: "text.delta", id: "answer", text: `${String(line)}\n` }],
  }),
  classify: ({ stderrTail }) => {
    const last = stderrTail.trim().split("\n").pop() ?? "";
    if (/DEEPSEEK_API_KEY|api[ _-]?key|auth set/i.test(last))
      return { code: "AGENT_AUTH_REQUIRED", message: last.trim(), hint: `Log in: ${AGENT.login}` };
    return classifyStderr(stderrTail, AGENT);
  },
});
