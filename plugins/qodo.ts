import { type Classification, classifyStderr, defineAdapter, defineLinesProtocol, type OdEventBody } from "../src/plugin.ts";

/**
 * Qodo Command (`@qodo/command`, bin `qodo`) headless: `qodo --ci [options] <prompt>` ("--ci  Run
 * commands in CI mode", `qodo --help` of 0.36.0). The prompt is the positional argument: the help
 * documents no stdin or file route. CI mode prints plain text, so every stdout line is answer text.
 *
 * How it is proven: against the real 0.36.0, which cannot run here: every turn goes through Qodo's
 * account server (api.ng.command.qodo.ai), even with a model of one's own. `qodo --version` exits 1
 * without a key (detection reads the version from its package.json), no key prints "Qodo API key
 * not found. Please log in first using 'qodo login' or set the QODO_API_KEY environment variable"
 * on stderr, and a key without the network prints "Unable to connect to Qodo Command servers: …" on
 * stdout (both exit 1, captured in test/fixtures/qodo); cancel and detection are tested with fakes.
 *
 * Modes, from `--permissions=level` ("r=read, rw=read+write, rwx=full"): read-only `r`, edit `rw`
 * (no shell), full `rwx` with `-y` ("Confirm all prompts automatically"). Resume is `-r
 * <session_id>`, but CI mode prints no session id, so od cannot offer it.
 */
const AGENT = { name: "Qodo Command", login: "run `qodo login`, or set QODO_API_KEY" };
const PERMISSIONS = { "read-only": ["--permissions=r"], edit: ["--permissions=rw"], full: ["--permissions=rwx", "-y"] } as const;

const NO_KEY = /Qodo API key not found|QODO_API_KEY/;
const auth = (line: string): Classification => ({ code: "AGENT_AUTH_REQUIRED", message: line.trim(), hint: `Log in: ${AGENT.login}` });

function parse(line: string): OdEventBody[] {
  if (/^Unable to connect to Qodo Command servers/.test(line)) {
    const hint = "Qodo Command runs every turn through its servers (api.ng.command.qodo.ai): check the network";
    return [{ type: "error", code: "AGENT_ERROR", message: line.trim(), hint, retryable: true }];
  }
  if (NO_KEY.test(line)) return [{ type: "error", ...auth(line), retryable: false }];
  return [{ type: "text.delta", id: "answer", text: `${line}\n` }];
}

export default defineAdapter({
  id: "qodo",
  ...AGENT,
  homepage: "https://docs.qodo.ai/qodo-documentation/qodo-command",
  install: "npm install -g @qodo/command",
  bin: "qodo",
  // `qodo --version` prints "Client: 0.36.0 (@qodo/command)" but exits 1 without a key: the package.json answers first.
  version: { args: ["--version"], parse: (out) => out.match(/Client: (\d+\.\d+\.\d+[\w.-]*)/)?.[1] },
  state: [
    ".qodo/", // config.json, auth.key, update-cache.json (observed: made at start; @qodo/command 0.36.0 dist/utils/userConfig.js)
  ],
  detect: {
    configDir: ".qodo",
    npmPackage: "@qodo/command",
    // Its key is QODO_API_KEY or what `qodo login` wrote to ~/.qodo/auth.key (validateKey in dist/auth of
    // 0.36.0), nowhere else: without either it is logged out (`qodo --version` then says so and exits 1).
    auth: { envKeys: ["QODO_API_KEY"], files: [{ path: ".qodo/auth.key" }], complete: true },
  },
  // `qodo models` lists them, through Qodo's servers; `-m, --model=model_name` selects one.
  models: [],
  efforts: [],
  capabilities: { streaming: true, resume: false, readOnly: true, skills: "prompt" },
  prompt: { via: "argv", maxPromptArgBytes: 30_000 },
  invoke: (ctx) => ({
    // After "--": a prompt that starts with "-" stays the prompt.
    argv: ["--ci", ...PERMISSIONS[ctx.mode], ...(ctx.model ? [`--model=${ctx.model}`] : []), "--", ctx.prompt],
  }),
  protocol: defineLinesProtocol({ format: "text", createState: () => ({}), parse: (line) => parse(String(line)) }),
  classify: ({ stderrTail }) => {
    const line = stderrTail.split("\n").find((l) => NO_KEY.test(l));
    return line ? auth(line) : classifyStderr(stderrTail, AGENT);
  },
});
