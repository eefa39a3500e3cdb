/**
 * What each of od's commands is for, one line each: the command's own `meta.description` and the
 * list `od --help` prints. Here, with no import, so that the help of `od` renders from this table
 * without loading a single command (each is a chunk of its own in the binary; `od serve`'s is the
 * server, `od acp`'s the ACP SDK).
 */
export const ABOUT = {
  run: "Run one prompt on an agent CLI and stream what it does",
  agents: "Which agents are there, working and logged in (the ones not installed are counted; --all lists them)",
  models: "The models an agent offers, and its effort levels",
  doctor: "Check the agents you have, their logins, plugins and od's data folder; one line per problem",
  init: "Write a role in an agent's own format (e.g. .claude/agents/<role>.md), for `od run --role`",
  plugins: "List every adapter with where it came from, and every plugin that failed to load",
  skills: "List the skills od can give an agent (bundled, ~/.open-design/skills, --skills-dir)",
  serve: "Start the local server: web UI, JSON API and live run streams (SSE)",
  runs: "Past runs, newest first (od run's and od serve's alike); `od runs show <id>` replays one",
  apply: "Apply one result of a compare run (od run --agent a,b / --repeat) to your working tree",
  discard: "Remove the kept results of a compare run (its od/<id>/* branches or patches)",
  acp: "Be an Agent Client Protocol agent on stdin/stdout: an ACP client (Zed, JetBrains, acpx…) drives any od agent",
  mcp: "Serve od as a Model Context Protocol server on stdio: list_agents, run_agent, cancel_run",
} as const;

/** A command of od. */
export type CommandName = keyof typeof ABOUT;
