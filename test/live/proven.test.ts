// Qoder CLI and Amp against their real binaries, up to their account servers (clis-proven.ts):
// detection (the version read from the package on disk) and cancel while the CLI waits on its own
// login check or server, the two things the matrix cannot show for a CLI that never reaches the
// model stub. Runs only with OD_LIVE=1; the missing-login error is the matrix's auth-failure.
import { describe, expect, test } from "bun:test";
import { installCli, type LiveCli } from "./clis.ts";
import { PROVEN_CLIS } from "./clis-proven.ts";
import { checkRun, type Fixture, fixture } from "./lane.ts";
import { DIST_OD, ensureBuilt, startOd, waitFor } from "./od.ts";
import { descendants, type ProcInfo, survivors } from "./procs.ts";

const LIVE = process.env.OD_LIVE === "1";
const TIMEOUT = 90_000;
const ready = LIVE ? ensureBuilt() : undefined;

function cliOf(id: string): LiveCli {
  const cli = PROVEN_CLIS.find((c) => c.id === id);
  if (!cli) throw new Error(`no proven CLI ${id}`);
  return cli;
}

/** A fresh fixture for the real binary (installed on first use) and the body; always disposed. */
async function withFixture(cli: LiveCli, body: (fx: Fixture) => Promise<void>): Promise<void> {
  await ready;
  const binDir = await installCli(cli);
  const fx = await fixture(cli, binDir, { kind: "chat" });
  try {
    await body(fx);
  } finally {
    await fx.dispose();
  }
}

/** `od agents --json --refresh` as the run's environment sees it: this adapter's entry. */
async function detect(fx: Fixture): Promise<Record<string, unknown>> {
  const proc = Bun.spawn([DIST_OD, "agents", "--json", "--refresh"], { env: fx.env, cwd: fx.work, stdout: "pipe", stderr: "pipe" });
  const [out] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const parsed = JSON.parse(out) as Array<Record<string, unknown>> | { agents: Array<Record<string, unknown>> };
  const list = Array.isArray(parsed) ? parsed : parsed.agents;
  const entry = list.find((a) => a.id === fx.cli.id);
  if (!entry) throw new Error(`od agents lists no ${fx.cli.id}`);
  return entry;
}

/**
 * Starts `od run` with `env`, waits for `waiting` (the CLI is in its own login or network wait),
 * cancels with SIGINT and checks exit 130, a cancelled run and that nothing of it survives.
 */
async function cancelDuring(fx: Fixture, env: Record<string, string>, waiting: () => boolean, what: string): Promise<string> {
  const running = startOd(["--agent", fx.cli.id, "--cwd", fx.work, "--timeout", "80", "Tell me a long story"], { env, cwd: fx.work });
  let tree: ProcInfo[] = [];
  await waitFor(() => {
    tree = descendants(running.pid);
    return tree.some((p) => p.cmdline.includes(fx.binDir) || p.cmdline.includes(fx.cli.bin)) && waiting();
  }, what);
  tree = descendants(running.pid);
  expect(
    running.events.filter((e) => e.type === "error"),
    "the CLI has not given up yet",
  ).toEqual([]);
  const t0 = performance.now();
  running.signal("SIGINT");
  const r = await running.done;
  checkRun(r);
  expect(r.exitCode).toBe(130);
  expect(r.finished?.status).toBe("cancelled");
  expect(
    survivors(tree, { home: fx.home, work: fx.work }).map((p) => `${p.pid} ${p.cmdline}`),
    "no process of the run may survive",
  ).toEqual([]);
  return `${tree.length} process(es) under od, all gone; cancel took ${Math.round(performance.now() - t0)} ms`;
}

describe.skipIf(!LIVE)("proven against the real binary (OD_LIVE=1)", () => {
  for (const cli of PROVEN_CLIS) {
    test(
      `${cli.id} detection: od agents shows the real version, read from its package`,
      () =>
        withFixture(cli, async (fx) => {
          const entry = await detect(fx);
          expect(entry).toMatchObject({ installed: true, version: cli.version, versionFrom: "package" });
          expect(String(entry.path)).toStartWith(fx.binDir);
        }),
      TIMEOUT,
    );
  }

  test(
    "qoder cancel during its login check: exit 130, no process left",
    () =>
      withFixture(cliOf("qoder"), async (fx) => {
        // qodercli logs its start in the fresh HOME, then checks the login online for 5-20 s before it answers.
        const logs = new Bun.Glob(".qoder/logs/runs/*/qodercli.log");
        const started = () => [...logs.scanSync({ cwd: fx.home, dot: true })].length > 0;
        console.log(`qoder cancel: ${await cancelDuring(fx, fx.env, started, "qodercli to start its login check")}`);
      }),
    TIMEOUT,
  );

  test(
    "amp cancel while it waits on its server: exit 130, no process left",
    () =>
      withFixture(cliOf("amp"), async (fx) => {
        // A loopback Amp server that takes every request and never answers: amp waits on its getUserInfo.
        const asked: string[] = [];
        const server = Bun.serve({
          hostname: "127.0.0.1",
          port: 0,
          idleTimeout: 0,
          fetch: (req) => {
            asked.push(new URL(req.url).pathname);
            return new Promise<Response>(() => {});
          },
        });
        try {
          const env = { ...fx.env, AMP_URL: `http://127.0.0.1:${server.port}`, AMP_API_KEY: "od-live-not-a-key" };
          const note = await cancelDuring(fx, env, () => asked.length > 0, "amp to ask its server");
          console.log(`amp cancel (asked ${asked.join(", ")}): ${note}`);
        } finally {
          server.stop(true);
        }
      }),
    TIMEOUT,
  );
});
