import { OdError } from "../core/contract/errors.ts";
import { type CompareRecord, type HistoryRecord, history, type ThreadRecord } from "../core/runs/history.ts";
import { historyPage } from "../core/runs/page.ts";
import type { RunSummary } from "../core/store/summary.ts";
import { ABOUT } from "./about.ts";
import { odCommand } from "./command.ts";
import { stdout } from "./out.ts";
import { runLog } from "./record.ts";
import { ago, home, seconds, short, showRun } from "./runs-show.ts";
import { fitRows, type Give, table } from "./table.ts";

export default odCommand({
  meta: { name: "runs", description: ABOUT.runs },
  args: {
    action: { type: "positional", required: false, description: '"show" to look at one run', valueHint: "show" },
    id: { type: "positional", required: false, description: "The run's id, or a unique start of it (for show)", valueHint: "id" },
    limit: { type: "string", description: "How many runs to list (default 20)", valueHint: "n" },
    before: { type: "string", description: "The page after this one: the `next` of a --json page", valueHint: "cursor" },
    agent: { type: "string", description: "Only the runs of this agent", valueHint: "id" },
    status: { type: "string", description: "Only runs that ended so (or are running, queued)", valueHint: "status" },
    search: { type: "string", description: "Only runs whose prompt, folder, agent or id holds this text", valueHint: "text" },
    json: {
      type: "boolean",
      description:
        'Print JSON: {"runs": [...], "total", "agents", "next"?}, the very page GET /api/runs gives (a compare run is one record, its members inside); with show, the run\'s events as JSON lines',
    },
  },
  async run({ args }) {
    if (args.action === "show") {
      if (!args.id) throw new OdError("INVALID_REQUEST", "Which run? `od runs show` takes its id", "`od runs` lists them.");
      return showRun(runLog(), args.id, Boolean(args.json));
    }
    if (args.action !== undefined)
      throw new OdError(
        "INVALID_REQUEST",
        `Unknown runs action "${args.action}"`,
        "Use `od runs` to list, `od runs show <id>` to look at one.",
      );
    const limit = args.limit === undefined ? 20 : Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new OdError("INVALID_REQUEST", `--limit takes a whole number from 1 to 200, not ${args.limit}`);
    // The same page GET /api/runs gives, with the same filters.
    const query = { limit, before: args.before, agent: args.agent, status: args.status, q: args.search };
    const page = historyPage(history(runLog(), Number.MAX_SAFE_INTEGER), query);
    if (args.json) return stdout.write(`${JSON.stringify(page)}\n`);
    const records = page.runs;
    if (!records.length) {
      const filtered = query.agent || query.status || query.q || query.before;
      return void process.stderr.write(filtered ? "no runs match\n" : "no runs yet: `od run` and `od serve` keep theirs in OD_HOME/runs\n");
    }
    const rows = records.map((r: HistoryRecord) => (r.kind === "run" ? runRow(r) : r.kind === "compare" ? groupRow(r) : threadRow(r)));
    await stdout.write(`${runsTable(rows)}\n`);
    if (page.next) process.stderr.write(`${records.length} of ${page.total}; older: od runs --before ${page.next}\n`);
  },
});

const HEADERS = ["id", "agent", "started", "cwd", "status", "time", "tokens in/out", "prompt"];

/** The list fits this many columns: a long folder, a long prompt or a compare run of many labels give way. */
export const WIDTH = 100;

/** The order they give way in: a folder keeps its last part ("…/web/app"), a prompt its start. */
const GIVE: Give[] = [
  { column: 7, min: 24 },
  { column: 3, min: 16, clip: "start" },
  { column: 1, min: 16 },
  { column: 7, min: 10 },
  { column: 3, min: 8, clip: "start" },
];

/** The rows under the list's headers, fitted to WIDTH. */
export function runsTable(rows: string[][]): string {
  return table(HEADERS, fitRows(HEADERS, rows, WIDTH, GIVE));
}

/** A prompt's start, on one line. */
const promptCell = (prompt: string | undefined) => prompt?.replace(/\s+/g, " ").trim() || "-";

function runRow(r: RunSummary): string[] {
  return [
    short(r.runId),
    r.agent ?? "-",
    ago(r.startedAt),
    home(r.cwd),
    r.status,
    seconds(r.durationMs),
    tokens([r.usage]),
    promptCell(r.prompt),
  ];
}

/** A conversation: its first turn's id and start, how many turns, its last turn's status. */
function threadRow(t: ThreadRecord): string[] {
  const head = `${t.agent ?? "-"} (${t.turns.length} turns)`;
  return [short(t.threadId), head, ago(t.startedAt), home(t.cwd), t.status, seconds(t.durationMs), tokens([t.usage]), promptCell(t.prompt)];
}

function groupRow(g: CompareRecord): string[] {
  return [
    short(g.groupId),
    `compare: ${g.members.map((m) => m.label).join(", ")}`,
    ago(g.startedAt),
    home(g.cwd),
    g.applied ? `applied ${g.applied.label}` : g.status,
    seconds(g.durationMs),
    tokens([g.usage]),
    promptCell(g.prompt),
  ];
}

/** Tokens summed over runs (a compare run's members), "-" when none said. */
function tokens(usages: Array<RunSummary["usage"]>): string {
  const known = usages.filter((u) => u?.inputTokens !== undefined || u?.outputTokens !== undefined);
  if (!known.length) return "-";
  const sum = (key: "inputTokens" | "outputTokens") => known.reduce((n, u) => n + (u?.[key] ?? 0), 0);
  return `${sum("inputTokens")}/${sum("outputTokens")}`;
}
