import {
  type Classification,
  type ClassifyContext,
  classifyStderr,
  defineAdapter,
  defineLinesProtocol,
  flag,
  parseVersion,
} from "../../src/plugin.ts";
import { AGENT, createState, parse } from "./parse.ts";

/**
 * Amp (Sourcegraph; `@sourcegraph/amp` now installs `@ampcode/cli`, a native binary). Headless is
 * execute mode with the prompt on stdin, as `amp --help` documents and the Amp SDK does. Amp has no
 * read-only flag: its permissions live in settings files, so read-only is its kernel sandbox's alone.
 * `--dangerously-allow-all` is not in `amp --help` but the binary accepts it (an unknown flag is
 * rejected with "unknown option") and the Amp SDK passes it for `dangerouslyAllowAll`: full mode only.
 *
 * How it is proven: against the real `@sourcegraph/amp` 0.0.1790142911-g7618fb (pinned in
 * test/live/clis-proven.ts) for detection (the version read from `@ampcode/cli`'s package.json), the
 * missing login and cancel; every other flag below is in its `--help`. With no key Amp starts its
 * login flow and waits for a code on stdin for good (od's prompt, with no final newline, never
 * completes one): od stops the run at its "No API key found" line, AGENT_AUTH_REQUIRED, exit 4
 * (fixture not-logged-in is its real stdout). Cancel is proven while it waits on its server (AMP_URL at a
 * loopback server that never answers): exit 130, no process left. Its turns are from its documented
 * output (the Amp SDK's StreamMessage): Amp cannot run a turn against a model stub, since the agent
 * runs against Amp's own server API (AMP_URL moves it, but then Amp asks `/api/internal`
 * getUserInfo, loadPlugins and loadSkills and creates the thread at `/api/thread-actors`), never
 * against a model API, and that server needs an Amp account.
 */

function classify({ stderrTail, events }: ClassifyContext): Classification | undefined {
  const said = [stderrTail, ...events.flatMap((e) => (e.type === "raw" ? [e.line] : []))].join("\n");
  if (/invalid or missing api key|no api key found|login failed/i.test(said))
    return { code: "AGENT_AUTH_REQUIRED", message: "Amp is not logged in, or its API key was rejected", hint: `Log in: ${AGENT.login}` };
  const unreachable = said.match(/Couldn't connect to the Amp server at \S+|Cannot reach Amp servers\.[^\n]*/);
  if (unreachable)
    return {
      code: "AGENT_ERROR",
      message: unreachable[0],
      hint: "Amp runs on its server: check the network, a proxy (amp.proxy), or AMP_URL.",
    };
  return classifyStderr(stderrTail, AGENT);
}

export default defineAdapter({
  id: "amp",
  ...AGENT,
  homepage: "https://ampcode.com/",
  install: "npm install -g @ampcode/cli",
  bin: "amp",
  version: { args: ["--version"], parse: parseVersion },
  // `-m, --mode`: "low, medium, high, ultra, or a plugin mode … controls the model, system prompt,
  // and tool selection". Amp has no model flag; its modes are how a user picks the model.
  models: ["low", "medium", "high", "ultra"],
  efforts: [],
  state: [
    "{XDG_CONFIG_HOME:-.config}/amp/", // settings (observed in a live run up to its login)
    "{XDG_DATA_HOME:-.local/share}/amp/", // device-id.json (observed), secrets.json (agent-safehouse profiles/60-agents/amp.sb)
    "{XDG_CACHE_HOME:-.cache}/amp/", // logs/cli.log (observed)
    "{XDG_STATE_HOME:-.local/state}/amp", // its state folder (agent-safehouse amp.sb); only when present
    ".amp", // the install script's binary folder, which it updates (agent-safehouse amp.sb); only when present
  ],
  detect: { configDir: ".config/amp", npmPackage: "@ampcode/cli", auth: { envKeys: ["AMP_API_KEY"] } },
  capabilities: { streaming: true, resume: true, readOnly: false, skills: "prompt" },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      ...(ctx.resume ? ["threads", "continue", ctx.resume] : []),
      // Implies --stream-json and adds thinking blocks; no IDE context in a headless run.
      "--stream-json-thinking",
      "--no-ide",
      ...flag("--mode", ctx.model),
      ...(ctx.mode === "full" ? ["--dangerously-allow-all"] : []),
      "--execute",
    ],
    stdin: ctx.prompt,
  }),
  // Text lines: the parser reads the JSON records itself, and Amp's plain "No API key found" line (parse.ts).
  protocol: defineLinesProtocol({ format: "text", createState, parse }),
  classify,
});
