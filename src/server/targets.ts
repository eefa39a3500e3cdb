import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../core/contract/errors.ts";
import { z } from "../core/contract/zod.ts";
import { Slots } from "../core/os/slots.ts";
import { formatTarget, parseTarget } from "../core/remote/target.ts";

/**
 * `od serve`'s named targets, from `OD_HOME/targets.json`:
 * `{ "targets": { "build-box": { "on": "ssh://me@build-1:22", "maxRuns": 2 }, "dev": { "on": "docker://dev" } } }`.
 * A client names one (`"target": "build-box"`); it never sends a URL, so a page or script that can reach the
 * server cannot make it ssh or exec anywhere its user can but did not choose. Each target has its own run slots.
 */
export const TARGETS_FILE = "targets.json";
/** Runs at once on a target when targets.json does not say: an agent CLI is heavy for one build box or container. */
export const DEFAULT_TARGET_RUNS = 2;

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const File = z.strictObject({
  targets: z.record(
    z.string().regex(NAME, "a target's name is letters, digits, '.', '_' and '-' (at most 64)"),
    z.strictObject({ on: z.string().min(1), maxRuns: z.number().int().min(1).max(64).optional() }),
  ),
});

export interface TargetInfo {
  name: string;
  /** The target as od writes it (the run's `on`, in its run.started and summary). */
  on: string;
  maxRuns: number;
  running: number;
  queued: number;
}

/** The targets in `OD_HOME/targets.json`; none when there is no such file. A bad file is an error naming it and the field. */
export function loadTargets(home: string): Targets {
  const file = join(home, TARGETS_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === "ENOENT") return new Targets({});
    throw bad(file, `cannot be read (${(err as Error)?.message ?? err})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw bad(file, `is not valid JSON (${(err as Error).message})`);
  }
  return parseTargets(raw, file);
}

export function parseTargets(raw: unknown, file = TARGETS_FILE): Targets {
  const parsed = File.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.map(String).join(".") : "(the whole file)";
    throw bad(file, `${field}: ${issue.message}`);
  }
  const targets: Record<string, { on: string; maxRuns: number }> = {};
  for (const [name, t] of Object.entries(parsed.data.targets)) {
    let on: string;
    try {
      on = formatTarget(parseTarget(t.on));
    } catch (err) {
      throw bad(file, `targets.${name}.on: ${OdError.from(err).message}`);
    }
    targets[name] = { on, maxRuns: t.maxRuns ?? DEFAULT_TARGET_RUNS };
  }
  return new Targets(targets);
}

function bad(file: string, what: string): OdError {
  return new OdError(
    "INVALID_REQUEST",
    `${file}: ${what}`,
    'It looks like {"targets": {"build-box": {"on": "ssh://me@build-1:22", "maxRuns": 2}, "dev": {"on": "docker://dev"}}}.',
  );
}

export class Targets {
  private readonly byName = new Map<string, { on: string; maxRuns: number; slots: Slots }>();

  constructor(targets: Record<string, { on: string; maxRuns: number }>) {
    for (const [name, t] of Object.entries(targets)) this.byName.set(name, { ...t, slots: new Slots(t.maxRuns) });
  }

  get size(): number {
    return this.byName.size;
  }

  list(): TargetInfo[] {
    return [...this.byName].map(([name, t]) => ({ name, on: t.on, maxRuns: t.maxRuns, running: t.slots.running, queued: t.slots.queued }));
  }

  /** A configured target by name: the run's `on`, and slots that take the target's and then one of `server`'s. */
  resolve(name: string, server: Slots): { on: string; slots: Slots } {
    const t = this.byName.get(name);
    if (!t) {
      const known = [...this.byName.keys()];
      throw new OdError(
        "INVALID_REQUEST",
        `No target named "${name}"`,
        known.length ? `Configured: ${known.join(", ")} (GET /api/targets).` : `None is configured: add it to OD_HOME/${TARGETS_FILE}.`,
      );
    }
    return { on: t.on, slots: new BothSlots(t.slots, server) };
  }
}

/**
 * Where a client's body says a run goes: undefined for this machine, else a configured target. A raw
 * `on` URL is refused: the server's user chose where it may reach, in targets.json, not its clients.
 */
export function targetOf(
  raw: unknown,
  targets: Targets | undefined,
  server: Slots,
): { name: string; on: string; slots: Slots } | undefined {
  const body = (raw && typeof raw === "object" ? raw : {}) as { on?: unknown; target?: unknown };
  if (body.on !== undefined)
    throw new OdError(
      "INVALID_REQUEST",
      'The server takes no target URL ("on") from a client',
      `Name a target configured in OD_HOME/${TARGETS_FILE} with "target" (GET /api/targets lists them); \`od run --on <url>\` takes a URL in your own terminal.`,
    );
  if (body.target === undefined) return undefined;
  if (typeof body.target !== "string" || !body.target)
    throw new OdError("INVALID_REQUEST", '"target" must be the name of a configured target', "GET /api/targets lists them.");
  return { name: body.target, ...(targets ?? new Targets({})).resolve(body.target, server) };
}

/**
 * A target's slots chained to the server's: a run takes its target's slot first (holding it while it
 * waits for the server's, which never waits on a target), so a busy target queues its own runs
 * without holding back runs elsewhere. `running` and `limit` are those of whichever one is full.
 */
class BothSlots extends Slots {
  constructor(
    private readonly own: Slots,
    private readonly server: Slots,
  ) {
    super(own.limit);
    Object.defineProperty(this, "limit", { get: () => this.full().limit });
  }

  private full(): Slots {
    return this.own.running >= this.own.limit ? this.own : this.server;
  }

  override get running(): number {
    return this.full().running;
  }

  override get queued(): number {
    return this.own.queued + this.server.queued;
  }

  override tryAcquire(): (() => void) | undefined {
    const own = this.own.tryAcquire();
    if (!own) return undefined;
    const server = this.server.tryAcquire();
    if (!server) own();
    return server && both(own, server);
  }

  override async acquire(signal?: AbortSignal): Promise<() => void> {
    const own = await this.own.acquire(signal);
    try {
      return both(own, await this.server.acquire(signal));
    } catch (err) {
      own();
      throw err;
    }
  }
}

const both = (own: () => void, server: () => void) => () => {
  server();
  own();
};

/** A compare run's members work in private copies of this machine's directory (worktrees): a target's tree is not od's to copy. */
export function compareOnTarget(): OdError {
  return new OdError(
    "INVALID_REQUEST",
    "A compare run cannot run on a target: each member works in a private copy of this machine's working directory",
    'Run the agents on the target one at a time (POST /api/runs with "target"), or compare them on this machine.',
  );
}
