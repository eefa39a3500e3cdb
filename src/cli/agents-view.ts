/**
 * What `od agents` and `od doctor` show people, apart from what they detect: the agents a user
 * has first, one line for the many they have not, and, when none is ready, how to get one. Out
 * of the box 42 adapters are "missing"; a table of 42 rows (or 40 install commands) hid the one
 * answer that mattered. `--json` prints every row, unchanged.
 */
import type { Detection } from "../core/agents/detection.ts";
import { PREFERENCE } from "../core/agents/select.ts";

/** Ready first, then installed but not usable (broken, outdated, logged out), then not installed; by id within each. */
export function forPeople(detections: Detection[]): Detection[] {
  const rank = (d: Detection) => (d.status === "ready" ? 0 : d.status === "missing" ? 2 : 1);
  return [...detections].sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The rows a table shows: with `all`, every one; else the ones there (ready or not), never the missing. */
export function shownRows(detections: Detection[], all: boolean): Detection[] {
  const ordered = forPeople(detections);
  return all ? ordered : ordered.filter((d) => d.status !== "missing");
}

/** One line for the agents left out of the table, with the command that lists them; undefined when none is. */
export function missingSummary(detections: Detection[], command: string): string | undefined {
  const missing = detections.filter((d) => d.status === "missing").length;
  if (!missing) return undefined;
  const there = detections.length - missing;
  return `${there ? `${missing} more` : `${missing} agents`} not installed: \`${command} --all\` lists them`;
}

/** How many CLIs to suggest installing when none is ready. */
const SUGGESTED = 3;

/** An install command runs here: a `curl … | bash` installer is no command on Windows. */
function runsOn(command: string, platform: NodeJS.Platform): boolean {
  if (platform !== "win32") return true;
  return !/\|\s*(ba)?sh\b/.test(command);
}

/**
 * How to get a first agent, for when none is ready: the install command of the first CLIs od prefers that install on
 * this platform, or the two settings of od's own loop (`api`) for a model endpoint.
 */
export function gettingStarted(installOf: (id: string) => string | undefined, platform: NodeJS.Platform = process.platform): string[] {
  const clis = PREFERENCE.filter((id) => id !== "api")
    .map((id) => [id, installOf(id)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined && runsOn(pair[1], platform))
    .slice(0, SUGGESTED);
  const width = Math.max(0, ...clis.map(([id]) => id.length));
  const set = platform === "win32" ? "set" : "export";
  return [
    "To get one, install an agent CLI (then log in to it), e.g.:",
    ...clis.map(([id, command]) => `    ${id.padEnd(width)}  ${command}`),
    "or use od's own agent loop (`--agent api`) with a model endpoint, e.g.:",
    `    ${set} OD_API_BASE_URL=http://localhost:11434/v1   (a local OpenAI-compatible server: Ollama, LM Studio, vLLM)`,
    `    ${set} ANTHROPIC_API_KEY=…   (or OPENAI_API_KEY=…: the provider's own API)`,
    "then `od agents --refresh`.",
  ];
}
