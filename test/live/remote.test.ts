// `od run --on ssh://…` in the live lane (OD_LIVE=1 bun test test/live/remote.test.ts): real pi on the
// "remote" side of a real OpenSSH server on loopback (test/support/sshd.ts), talking to the loopback
// model stub. od's own environment has only the ssh client: pi's PATH, HOME and key are the server's
// (sshd's SetEnv). A chat, and a tool-write whose file exists on the target, with run.result's files
// and diff taken there by its git; and `od agents --on` finding pi there.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sshd, sshdMissing, startSshd } from "../support/sshd.ts";
import { CLIS, installCli, type LiveCli, liveEnv } from "./clis.ts";
import { type ModelStub, type Scenario, startModelStub } from "./model-stub.ts";
import { DIST_OD, ensureBuilt, OD_TIMEOUT_S, runOd } from "./od.ts";
import { killAll, survivors } from "./procs.ts";

const LIVE = process.env.OD_LIVE === "1";
const pi = CLIS.find((c) => c.id === "pi") as LiveCli;

describe.skipIf(!LIVE || Boolean(sshdMissing))(`od run --on ssh://, live (OD_LIVE=1${sshdMissing ? `; ${sshdMissing}` : ""})`, () => {
  let root: string;
  let remoteHome: string;
  let sshd: Sshd;
  let binDir: string;
  let stub: ModelStub | undefined;
  let localEnv: Record<string, string>;

  beforeAll(async () => {
    await ensureBuilt();
    binDir = await installCli(pi);
    root = mkdtempSync(join(tmpdir(), "od-live-remote-"));
    remoteHome = join(root, "remote-home");
    // The target's environment: pi's own (its config folder under HOME, its key), fixed for the server's life.
    const { PATH, OD_HOME: _, ...rest } = liveEnv(pi, { binDir, home: remoteHome, stubUrl: "http://127.0.0.1:9" });
    sshd = await startSshd(root, PATH!, rest);
    // This machine's: the ssh client only. No pi on PATH, no key.
    localEnv = { PATH: `${sshd.bin}:/usr/bin:/bin`, HOME: join(root, "local-home"), OD_HOME: join(root, "local-home", ".od") };
  }, 600_000);

  afterEach(async () => {
    killAll(survivors([], { home: remoteHome, work: root }));
    await stub?.stop();
    stub = undefined;
  });

  afterAll(async () => {
    await sshd?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A stub for this test, pi's config on the target pointed at it, and a fresh work folder there. */
  async function fixture(scenario: Scenario, git: boolean) {
    stub = await startModelStub({ scenario });
    liveEnv(pi, { binDir, home: remoteHome, stubUrl: stub.url }); // rewrites pi's models.json on the target
    const work = mkdtempSync(join(root, "work-"));
    if (git)
      Bun.spawnSync(
        ["sh", "-c", "git init -q && echo seed > seed.txt && git add . && git -c user.name=t -c user.email=t@t commit -qm seed"],
        { cwd: work },
      );
    return work;
  }

  const od = (work: string, ...args: string[]) =>
    runOd(["--agent", "pi", "--on", sshd.target, "--cwd", work, "--timeout", String(OD_TIMEOUT_S), ...args], {
      env: localEnv,
      cwd: root,
      timeoutMs: 60_000,
    });

  test("a chat with pi on the target", async () => {
    const work = await fixture({ kind: "chat", text: "OD_REMOTE_CHAT_OK" }, false);
    const r = await od(work, "Say hi");
    expect(r.of("error"), r.stderr).toEqual([]);
    expect(r.finished).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(r.text).toBe("OD_REMOTE_CHAT_OK");
    expect(r.of("run.started")[0]).toMatchObject({ on: sshd.target, cwd: work, bin: "pi" });
    expect(r.of("run.result")[0]).toMatchObject({ files: [], note: expect.stringContaining("not in a git work tree") });
    expect(JSON.stringify(stub!.requests.at(-1)?.body)).toContain("Say hi");
  }, 120_000);

  test("a tool-write: the file exists on the target; run.result's files and diff come from the target's git", async () => {
    const work = await fixture(
      { kind: "tool-write", file: "hello.txt", content: "HELLO_FROM_REMOTE_PI\n", finalText: "PI_WROTE_IT" },
      true,
    );
    const r = await od(work, "--mode", "edit", "Create hello.txt");
    expect(r.of("error"), r.stderr).toEqual([]);
    expect(r.finished?.status).toBe("succeeded");
    expect(r.text).toContain("PI_WROTE_IT");
    expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("HELLO_FROM_REMOTE_PI\n");
    expect(r.of("tool.call").some((c) => c.name === pi.writeTool)).toBe(true);
    const result = r.of("run.result")[0]!;
    expect(result.files).toEqual(["hello.txt"]);
    expect(result.diff).toContain("+HELLO_FROM_REMOTE_PI");
    expect(result.diff).toContain("new file mode");
  }, 120_000);

  test("od agents --on finds pi on the target, with its version", async () => {
    const p = Bun.spawn([DIST_OD, "agents", "--on", sshd.target, "--json", "--refresh"], { env: localEnv, stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(p.exitCode, err).toBe(0);
    const found = (JSON.parse(out) as { id: string; status: string; version?: string; path?: string }[]).find((d) => d.id === "pi");
    expect(found).toMatchObject({ status: "ready", version: pi.version, path: join(binDir, "pi") });
  }, 60_000);
});
