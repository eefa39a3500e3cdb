/**
 * An ACP agent as a preset plus its differences (in the manner of Nitro's `extends`): every agent
 * od drives over the Agent Client Protocol gets its prompt through the protocol, the `acp` session
 * driver, its models from the session, `--version` read by the common pattern, stderr classified
 * with its own name and login, and the capabilities the protocol gives (streaming, approvals
 * relayed to od). An adapter says only what is its own: identity, the command line that starts its
 * ACP server, the session option per mode, its state, detection and claims.
 */
import type { AdapterInput, Classification, ClassifyContext, Invocation, InvokeContext } from "../contract/adapter.ts";
import type { Mode } from "../contract/events.ts";
import { classifyStderr } from "../protocols/classify-text.ts";
import type { ToolRule } from "../protocols/tool-facts.ts";
import { parseVersion } from "./adapter-helpers.ts";

type Capabilities = AdapterInput["capabilities"];

/** A session config option od sets before the prompt: its id and the value for an od mode. */
export interface AcpModeOption {
  configId: string;
  value: string;
}

/** What one ACP agent says of itself; the rest comes from the preset. */
export interface AcpAgentInput
  extends Omit<AdapterInput, "capabilities" | "version" | "prompt" | "invoke" | "protocol" | "models" | "efforts" | "classify"> {
  /**
   * What follows the executable to start its ACP server (`["acp"]`, `["--acp"]`, `["acp", "serve"]`),
   * or a function of the run when it carries mode or model flags. Default: nothing.
   */
  argv?: readonly string[] | ((ctx: InvokeContext) => string[]);
  /** Environment for the server on top of the parent's: fixed, or per run (undefined: none). */
  env?: Record<string, string> | ((ctx: InvokeContext) => Record<string, string> | undefined);
  /**
   * The session option od sets per mode before the prompt (a string: the value of the session's
   * `mode` option); the driver stops the run when the agent does not offer it.
   */
  modes?: Partial<Record<Mode, string | AcpModeOption>>;
  /**
   * The agent's tools by name (or the start of their title, "editor: …") where its ACP calls say
   * too little or the wrong thing: the kind od's policy decides by, replacing the agent's own, and
   * the input keys that name the files when the call has no `locations`.
   */
  tools?: Record<string, ToolRule>;
  /** `_meta` od sends with session/new (and session/load) per mode: an agent's own session options. */
  sessionMeta?: Partial<Record<Mode, Record<string, unknown>>>;
  /**
   * The agent's claims: `resume` and `readOnly` always said; `streaming`, `relayApprovals` and
   * `mcpServers` are true and `skills` is "prompt" unless said otherwise.
   */
  capabilities: Partial<Capabilities> & Pick<Capabilities, "resume" | "readOnly">;
  /** Default: `--version`, read by the common pattern (parseVersion). */
  version?: AdapterInput["version"];
  /** Models and efforts for the command line; default none: the session lists its models and od selects over ACP. */
  models?: string[];
  efforts?: string[];
  /**
   * How a failed run is told apart. Default: the last line of stderr, read with the agent's name and
   * login (classifyStderr); an override gets that default as `byStderr`, to fall back on.
   */
  classify?: (ctx: ClassifyContext, byStderr: Classifier) => Classification | undefined;
}

type Classifier = (ctx: ClassifyContext) => Classification | undefined;

/** The defaults an ACP agent's capabilities start from: MCP servers go in its session/new (and session/load), as ACP defines. */
const ACP_CAPABILITIES = { streaming: true, relayApprovals: true, mcpServers: true, skills: "prompt" } as const;

/**
 * Declares an adapter for an agent od drives over ACP: the preset filled in, the differences
 * given. The result is an ordinary adapter, validated at load like any other. (src/plugin.ts has
 * an example.)
 */
export function defineAcpAgent(agent: AcpAgentInput) {
  const { argv = [], env, modes, tools, sessionMeta, capabilities, version, classify, ...facts } = agent;
  const byStderr: Classifier = ({ stderrTail }) => classifyStderr(stderrTail, { name: facts.name, login: facts.login });
  return {
    ...facts,
    classify: classify ? (ctx: ClassifyContext) => classify(ctx, byStderr) : byStderr,
    version: version ?? { args: ["--version"], parse: parseVersion },
    capabilities: { ...ACP_CAPABILITIES, ...capabilities },
    prompt: { via: "protocol" },
    invoke: (ctx) => invocation(ctx, argv, env),
    protocol: { kind: "driver", driver: "acp", ...driverOptions(modes, tools, sessionMeta) },
  } satisfies AdapterInput;
}

function invocation(ctx: InvokeContext, argv: NonNullable<AcpAgentInput["argv"]>, env: AcpAgentInput["env"]): Invocation {
  const args = typeof argv === "function" ? argv(ctx) : [...argv];
  const vars = typeof env === "function" ? env(ctx) : env;
  return vars ? { argv: args, env: vars } : { argv: args };
}

/** The ACP driver's options, when the adapter gives any: the session option per mode, its tool rules, its session `_meta`. */
function driverOptions(modes: AcpAgentInput["modes"], tools: AcpAgentInput["tools"], sessionMeta: AcpAgentInput["sessionMeta"]) {
  if (!modes && !tools && !sessionMeta) return {};
  return {
    options: { ...(modes ? { modes: sessionOptions(modes) } : {}), ...(tools ? { tools } : {}), ...(sessionMeta ? { sessionMeta } : {}) },
  };
}

/** The option per mode as the ACP driver takes it: a bare value is the session's `mode` option. */
function sessionOptions(modes: NonNullable<AcpAgentInput["modes"]>): Partial<Record<Mode, AcpModeOption>> {
  return Object.fromEntries(Object.entries(modes).map(([mode, o]) => [mode, typeof o === "string" ? { configId: "mode", value: o } : o]));
}
