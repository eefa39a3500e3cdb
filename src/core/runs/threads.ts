import type { RunSummary } from "../store/summary.ts";

/**
 * A conversation: a run and the runs that continued its session (each one's request resumed the
 * session the one before reported), as one record of the history, its turns oldest first. What it
 * says of itself is its first turn's (prompt, start) and its last turn's (status, the session to
 * continue), with time and usage summed.
 */
export interface ThreadRecord {
  kind: "thread";
  /** The first turn's run id. */
  threadId: string;
  agent?: string;
  prompt?: string;
  cwd?: string;
  startedAt: number;
  status: RunSummary["status"];
  durationMs?: number;
  usage?: RunSummary["usage"];
  /** The session to continue the conversation with, and whether it can be. */
  sessionId?: string;
  resumable?: boolean;
  on?: string;
  turns: RunSummary[];
}

/**
 * Folds runs into conversations: a run whose `resume` is the session an earlier run of the same
 * agent reported follows that run. Runs no other run continues, and that continue none, stay as they are.
 */
export function threads(runs: RunSummary[]): Array<RunSummary | ThreadRecord> {
  const byStart = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  const lastOfSession = new Map<string, RunSummary[]>(); // a session id -> the chain whose last turn reported it
  const chains: RunSummary[][] = [];
  for (const run of byStart) {
    const key = (session: string | undefined) => (session ? `${run.agent}\0${session}` : undefined);
    const before = key(run.resume) && lastOfSession.get(key(run.resume)!);
    const chain = before || [];
    if (!before) chains.push(chain);
    chain.push(run);
    const reported = key(run.sessionId);
    if (reported) lastOfSession.set(reported, chain);
  }
  return chains.map((chain) => (chain.length === 1 ? chain[0]! : threadOf(chain)));
}

function threadOf(turns: RunSummary[]): ThreadRecord {
  const first = turns[0]!;
  const last = turns.at(-1)!;
  const sum = (key: "inputTokens" | "outputTokens" | "costUsd") => {
    const known = turns.filter((t) => t.usage?.[key] !== undefined);
    return known.length ? known.reduce((n, t) => n + (t.usage?.[key] ?? 0), 0) : undefined;
  };
  const usage = JSON.parse(JSON.stringify({ inputTokens: sum("inputTokens"), outputTokens: sum("outputTokens"), costUsd: sum("costUsd") }));
  return {
    kind: "thread",
    threadId: first.runId,
    agent: first.agent,
    prompt: first.prompt,
    cwd: first.cwd,
    startedAt: first.startedAt,
    status: last.status,
    durationMs: turns.reduce((n, t) => n + (t.durationMs ?? 0), 0),
    usage: Object.keys(usage).length ? usage : undefined,
    sessionId: last.sessionId,
    resumable: last.resumable,
    on: last.on,
    turns,
  };
}
