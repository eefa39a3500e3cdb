/**
 * The contract every adapter must keep, run against each one the way hono runs
 * one suite against every router. A new adapter inherits all of it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { homePath } from "../../src/core/agents/auth-on-disk.ts";
import { driverFor } from "../../src/core/agents/driver-for.ts";
import { createRegistry, type RegistryEntry } from "../../src/core/agents/registry.ts";
import { type Adapter, validateAdapter } from "../../src/core/contract/adapter.ts";
import { type BodyOf, type Mode, OdEvent, type OdEventBody } from "../../src/core/contract/events.ts";
import { finishing, interpret } from "../../src/core/protocols/interpret.ts";
import { loopSettings } from "../../src/core/run/launch.ts";
import { planRun } from "../../src/core/run/plan.ts";
import { collect, FIXTURES, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";
import { mcpConformance } from "./conformance-mcp.ts";

/** Tokens that lift a CLI's approvals or sandbox; never allowed below `full`. */
export const BYPASS_TOKENS = [
  "--dangerously-skip-permissions",
  "bypassPermissions",
  "--yolo",
  "yolo",
  "--full-auto",
  "danger-full-access",
  "--dangerously-bypass-approvals-and-sandbox",
  "--allow-all-tools",
  "--allow-all",
  "--force",
  "--trust-all-tools",
];

export interface Expectations {
  /** Flags that must appear in read-only argv (the CLI's strongest read-only setting). */
  readOnly: string[];
  /** What holds edit mode to edits (argv flags, or the ACP session's mode), where the CLI needs more than its default. */
  edit?: string[];
  /**
   * Every way the real CLI can take a prompt (see its --help). Required for an
   * argv adapter: it proves the CLI has no stdin or file route od should use instead.
   */
  promptRoutes?: Array<"stdin" | "file" | "argv">;
}

const PROMPT = 'CONFORMANCE PROMPT ☃ with "quotes" & $(dollar) `ticks`';
const MODES: Mode[] = ["read-only", "edit", "full"];

function invoke(adapter: Adapter, over: Partial<Parameters<Adapter["invoke"]>[0]> = {}) {
  return adapter.invoke({ prompt: PROMPT, cwd: "/work/project", mode: "edit", bin: `/usr/bin/${adapter.bin}`, ...over });
}

/** Everything the agent receives for one invocation: argv, stdin, and what its driver sends or keeps for the session. */
function delivered(
  adapter: Adapter,
  over: Partial<Parameters<Adapter["invoke"]>[0]> = {},
): { argv: string[]; stdin?: string; session: string } {
  const inv = invoke(adapter, over);
  const options = adapter.protocol.kind === "driver" ? adapter.protocol.options : undefined;
  const ctx = { agent: { name: adapter.name }, prompt: PROMPT, cwd: "/work/project", mode: "edit" as Mode, options, ...over };
  // A session driver may send the prompt at once (pi) or keep it for after the handshake (ACP);
  // a loop inside od is handed the run's settings typed, by the launch stage, not as flags.
  const session =
    adapter.protocol.kind === "driver"
      ? JSON.stringify(driverFor(adapter).start(ctx))
      : adapter.protocol.kind === "loop"
        ? JSON.stringify(loopSettings(ctx))
        : "";
  return { argv: inv.argv, stdin: inv.stdin, session };
}

function promptDelivered(adapter: Adapter, mode: Mode): boolean {
  const d = delivered(adapter, { mode });
  if (adapter.prompt.via === "stdin") return d.stdin === PROMPT;
  if (adapter.prompt.via === "argv") return d.argv.includes(PROMPT);
  if (adapter.prompt.via === "protocol") return d.session.includes(JSON.stringify(PROMPT).slice(1, -1));
  // "file": the argv names the prompt file, and the prompt itself is nowhere in it.
  const file = invoke(adapter, { mode, promptFile: "/tmp/od-prompt-test/prompt.md" });
  return file.argv.includes("/tmp/od-prompt-test/prompt.md") && !file.argv.some((a) => a.includes("CONFORMANCE PROMPT"));
}

/** Garbage shaped like records: wrong types and missing fields at every level of real lines. */
function mutations(record: unknown): unknown[] {
  const out: unknown[] = [null, 0, "x", [], {}, { type: 42 }, { type: null }];
  if (typeof record !== "object" || record === null) return out;
  const walk = (value: unknown, replace: (v: unknown) => unknown, depth: number) => {
    if (depth > 3 || typeof value !== "object" || value === null) return;
    for (const key of Object.keys(value)) {
      for (const bad of [null, 7, "s", [], {}]) {
        out.push(replace(structuredClone({ ...(value as Record<string, unknown>), [key]: bad })));
      }
      walk((value as Record<string, unknown>)[key], (v) => replace({ ...(value as Record<string, unknown>), [key]: v }), depth + 1);
    }
  };
  walk(record, (v) => v, 0);
  return out;
}

/**
 * What is wrong with how an adapter delivers its prompt: argv is the last resort
 * (only for a CLI with no stdin or file route, per its expectations), and an argv
 * adapter declares a budget that fits a Windows command line; nobody else does.
 */
export function promptRouteProblems(adapter: Adapter, expectations: Expectations | undefined): string[] {
  const problems: string[] = [];
  const { via, maxPromptArgBytes } = adapter.prompt;
  const routes = expectations?.promptRoutes;
  if (via === "argv") {
    if (maxPromptArgBytes === undefined) problems.push(`${adapter.id} passes the prompt in argv: declare prompt.maxPromptArgBytes`);
    else if (maxPromptArgBytes >= 32_768)
      problems.push(`${adapter.id}: maxPromptArgBytes ${maxPromptArgBytes} cannot fit CreateProcess's 32,767-character command line`);
    if (!routes)
      problems.push(`${adapter.id}: list the CLI's prompt routes (promptRoutes) in test/fixtures/${adapter.id}/expectations.json`);
    if (invoke(adapter).stdin !== undefined) problems.push(`${adapter.id} writes stdin, so its CLI can take the prompt there`);
  } else if (maxPromptArgBytes !== undefined) {
    problems.push(`${adapter.id} does not pass the prompt in argv: drop prompt.maxPromptArgBytes`);
  }
  if (via === "argv" && (routes?.includes("stdin") || routes?.includes("file")))
    problems.push(`${adapter.id}'s CLI reads the prompt from ${routes.filter((r) => r !== "argv").join(" or ")}: use that, not argv`);
  return problems;
}

/** Folders other programs share, relative to HOME: granting one whole would let the agent write far beyond its own state. */
const SHARED_DIRS = ["", ".cache", ".config", ".local", ".local/share", ".local/state", ".npm", "Library", "Library/Application Support"];
/** Variables that name such a folder. */
const SHARED_VARS = [
  "HOME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_RUNTIME_DIR",
];

/**
 * What is wrong with an adapter's `state` (the only places besides a temp folder the kernel lets it
 * write in read-only mode): none declared for a CLI od starts, an entry that does not parse or
 * resolve with a HOME, or one that names HOME, `/`, the temp dir or a folder other programs share
 * on its own. A `{VAR}` with no fallback resolves only when VAR is set (a folder the user moved).
 */
export function stateProblems(adapter: Adapter): string[] {
  if (adapter.protocol.kind === "loop") return []; // od's own loop runs in process: the kernel does not hold it
  const problems: string[] = [];
  if (adapter.state.length === 0) problems.push(`${adapter.id} declares no state: where does its CLI write its config, sessions and logs?`);
  const home = "/home/od-conformance";
  const broad = new Set([
    "/",
    "/tmp",
    "/var/tmp",
    "/dev/shm",
    ...SHARED_DIRS.map((d) => join(home, d)),
    ...SHARED_VARS.map((v) => `/env/${v}`),
  ]);
  // Every variable unset (the fallback decides), then every one set to a folder of its own.
  const unset: Record<string, string> = {};
  const set = new Proxy(unset, { get: (_, key) => `/env/${String(key)}` });
  for (const spec of adapter.state) {
    const bare = spec.replace(/\/+$/, "");
    if (/[{}]/.test(spec) && !/^\{\w+(:-[^{}]+)?\}(\/[^{}]*)?$/.test(spec)) {
      problems.push(`${adapter.id}: state "${spec}" is not a path, an absolute path or {VAR:-fallback}/path`);
      continue;
    }
    const paths = [homePath(bare, unset, home), homePath(bare, set, home)];
    if (!paths[1]) problems.push(`${adapter.id}: state "${spec}" does not resolve`);
    for (const path of paths)
      if (path && broad.has(join(path, ".")))
        problems.push(`${adapter.id}: state "${spec}" is ${path}, shared with other programs: name the CLI's own folder in it`);
  }
  return [...new Set(problems)];
}

/** The tool.calls an adapter's driver makes from its fixture lines, those of the calls a denial closes included. */
async function fixtureToolCalls(adapter: Adapter, dir: string, files: string[]): Promise<Array<BodyOf<"tool.call">>> {
  const driver = driverFor(adapter);
  const options = adapter.protocol.kind === "driver" ? adapter.protocol.options : undefined;
  const events: OdEventBody[] = [];
  for (const file of files) {
    const { state } = driver.start({ agent: { name: adapter.name, login: adapter.login }, prompt: "x", cwd: "/w", mode: "edit", options });
    for (const line of readFileSync(join(dir, file), "utf8").replace(/\n$/, "").split("\n")) {
      const step = await interpret(driver, state, line);
      events.push(...step.events, ...(step.asks ?? []).flatMap((ask) => ask.denied?.("conformance") ?? []));
    }
    events.push(...(await finishing(driver, state)));
  }
  return events.filter((e): e is BodyOf<"tool.call"> => e.type === "tool.call");
}

export function runAdapterSuite(entry: RegistryEntry, expectations: Expectations | undefined, builtinIds: readonly string[]) {
  const adapter = entry.adapter;
  const fixtureDir = join(FIXTURES, adapter.id);
  const fixtures = existsSync(fixtureDir) ? readdirSync(fixtureDir).filter((f) => f.endsWith(".jsonl")) : [];

  describe(`adapter ${adapter.id}`, () => {
    test("passes the adapter schema; a built-in's id is its file name", () => {
      expect(() => validateAdapter(adapter)).not.toThrow();
      if (entry.source === "builtin") expect(builtinIds).toContain(adapter.id);
      // A built-in's defaults are filled without the schema (adapter-defaults.ts): they must be the schema's,
      // and it must have no key the schema would strip.
      if (entry.source === "builtin") expect(validateAdapter(adapter)).toEqual(adapter);
    });

    test("declares its CLI's own state, each entry the CLI's own folder or file, never HOME or a shared folder", () => {
      expect(stateProblems(adapter)).toEqual([]);
    });

    test("invoke returns an argv array of strings in every mode, new and resumed", () => {
      for (const mode of MODES)
        for (const resume of [undefined, "sess-123"]) {
          const inv = invoke(adapter, { mode, resume: adapter.capabilities.resume ? resume : undefined });
          expect(Array.isArray(inv.argv)).toBe(true);
          for (const a of inv.argv) expect(typeof a).toBe("string");
          if (inv.env) for (const v of Object.values(inv.env)) expect(typeof v).toBe("string");
        }
    });

    test("the prompt reaches the agent by its declared route, and never argv unless declared", () => {
      for (const mode of MODES) {
        expect(promptDelivered(adapter, mode)).toBe(true);
        const argv = invoke(adapter, { mode }).argv;
        if (adapter.prompt.via !== "argv") expect(argv.some((a) => a.includes("CONFORMANCE PROMPT"))).toBe(false);
      }
    });

    test("argv only where the CLI has no stdin or file route, and then with a Windows-sized budget", () => {
      expect(promptRouteProblems(adapter, expectations)).toEqual([]);
    });

    test("read-only carries the CLI's read-only flags (argv, or the ACP session's mode); no bypass token below full", () => {
      const readOnly = invoke(adapter, { mode: "read-only" }).argv;
      const edit = invoke(adapter, { mode: "edit" }).argv;
      for (const argv of [readOnly, edit]) for (const t of BYPASS_TOKENS) expect(argv).not.toContain(t);
      if (adapter.capabilities.readOnly) {
        expect(expectations, `add read-only expectations for ${adapter.id}`).toBeDefined();
        const all = (mode: Mode) => {
          const d = delivered(adapter, { mode });
          return `${d.argv.join(" ")} ${d.session}`;
        };
        for (const flag of expectations!.readOnly) expect(all("read-only")).toContain(flag);
        expect(all("read-only")).not.toEqual(all("edit"));
      }
      const editing = delivered(adapter, { mode: "edit" });
      for (const flag of expectations?.edit ?? []) expect(`${editing.argv.join(" ")} ${editing.session}`).toContain(flag);
    });

    test("a model flag only for a non-default model; effort only through the real flag", () => {
      expect(invoke(adapter).argv.some((a) => a === "--model" || a === "-m")).toBe(false);
      const withModel = delivered(adapter, { model: "zz-model-9" });
      expect(withModel.argv.join(" ") + withModel.session).toContain("zz-model-9"); // argv, or the session (ACP)
      for (const effort of adapter.efforts) expect(invoke(adapter, { effort }).argv.join(" ")).toContain(effort);
      if (adapter.capabilities.resume) {
        const resumed = delivered(adapter, { resume: "sess-123" });
        expect(resumed.argv.join(" ") + resumed.session).toContain("sess-123"); // argv, or session/load (ACP)
      }
    });

    test("MCP servers are a declared capability: taken, each reaches the CLI and no credential is in argv; else the run says which were not given", () =>
      mcpConformance(entry));

    test("the driver never throws on garbage, and what it emits is valid", () => {
      const driver = driverFor(adapter);
      // Lines up to 64 KiB: a huge one (an ACP agent's whole model catalog, half a megabyte) would be
      // cloned once per key it holds, for minutes, and says nothing the smaller ones do not.
      const records = fixtures.flatMap((f) =>
        readFileSync(join(fixtureDir, f), "utf8")
          .split("\n")
          .filter((l) => l.length <= 64 * 1024)
          .flatMap((l) => {
            try {
              return [JSON.parse(l)];
            } catch {
              return [];
            }
          }),
      );
      const { state } = driver.start({ agent: { name: adapter.name }, prompt: "x", cwd: "/w", mode: "edit" });
      for (const record of [undefined, ...records.slice(0, 40).flatMap(mutations)]) {
        const step = driver.receive(record, state, JSON.stringify(record) ?? "");
        for (const e of step.events) expect(OdEvent.safeParse({ ...e, runId: "r", seq: 0, ts: 0 }).success).toBe(true);
      }
      for (const line of ["", "{", "null", "[1,2", "\u0000\u0001", '{"type":"result"'.repeat(50)])
        expect(() => interpret(driver, state, line)).not.toThrow();
    });

    test("no credential in an agent's error text reaches an error, hint, status or raw line", async () => {
      // Every fixture line again, keys spliced into its error-ish strings: whatever the driver makes of them, no diagnostic carries one.
      const leak = "ODLEAK0123456789abcdef";
      const splice = ` (x-api-key: sk-ant-api03-${leak}; Authorization: Bearer ${leak}; ?key=AIzaSy${leak}abcdefgh)`;
      const spliced = (value: unknown, key = ""): unknown => {
        if (typeof value === "string") return /message|error|result|reason|detail|stderr|text|output/i.test(key) ? value + splice : value;
        if (typeof value !== "object" || value === null) return value;
        if (Array.isArray(value)) return value.map((v) => spliced(v, key));
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, spliced(v, k)]));
      };
      const said = (e: OdEventBody) =>
        e.type === "error" ? [e.message, e.hint] : e.type === "status" ? [e.detail] : e.type === "raw" ? [e.line] : [];
      const json = (line: string): unknown => {
        try {
          return JSON.parse(line);
        } catch {
          return undefined;
        }
      };
      const driver = driverFor(adapter);
      const events: OdEventBody[] = [];
      for (const file of fixtures) {
        const { state } = driver.start({ agent: { name: adapter.name, login: adapter.login }, prompt: "x", cwd: "/w", mode: "edit" });
        for (const line of readFileSync(join(fixtureDir, file), "utf8").split("\n")) {
          const record = driver.textLines || !line.trim() ? undefined : json(line);
          const text = record === undefined ? (line.trim() ? line + splice : line) : JSON.stringify(spliced(record));
          events.push(...(await interpret(driver, state, text)).events);
        }
        events.push(...(await finishing(driver, state)));
      }
      expect(events.flatMap(said).filter((s) => s?.includes(leak))).toEqual([]);
    });

    // od's own loop has no CLI output to replay: test/core/api/tools.test.ts checks its calls' kinds.
    if (entry.source === "builtin" && adapter.protocol.kind !== "loop")
      test("every tool.call it makes from its fixtures says what kind of call it is", async () => {
        // A community plugin may say nothing (the kind is optional); a built-in always says, from what its CLI says.
        expect(fixtures.length, `${adapter.id} has no fixtures to check`).toBeGreaterThan(0);
        const calls = await fixtureToolCalls(adapter, fixtureDir, fixtures);
        expect(calls.filter((c) => c.kind === undefined).map((c) => `${c.name} (${c.id})`)).toEqual([]);
      });

    for (const file of fixtures) {
      test(`end to end on fixture ${file}: every tool.call closed, exactly one run.finished, last`, async () => {
        await using tmp = tmpdir();
        const fake = installFake(tmp.path, adapter.bin, [{ replay: join(fixtureDir, file) }]);
        const registry = createRegistry([entry]);
        const events = await collect(
          runAgent({ agent: adapter.id, prompt: "x", cwd: tmp.path }, { registry, env: fake.env, doneGraceMs: 200 }),
        );
        const calls = ofType(events, "tool.call").map((e) => e.id);
        const results = new Set(ofType(events, "tool.result").map((e) => e.id));
        for (const id of calls) expect(results.has(id)).toBe(true);
        const end = finished(events);
        expect(end.type).toBe("run.finished");
        // A run said resumable is one `--resume` then takes: the plan for the follow-up must not refuse it.
        if (end.resumable) {
          const request = { agent: adapter.id, prompt: "again", cwd: tmp.path, resume: end.sessionId };
          const plan = await planRun(request, { registry, env: fake.env }).catch((err: Error) => err.message);
          expect(typeof plan === "string" ? plan : "planned").toBe("planned");
        }
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      });
    }
  });
}
