/** OD_HOME at start: one live od serve owns it (a stale pid file does not), and a home od cannot write is said plainly. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../../src/server/serve.ts";
import { DIST_OD, installFake, tmpdir } from "../helpers.ts";
import { readFrames, registry } from "./support.ts";

/** The pids whose parent is `parent`. */
function children(parent: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
      } catch {
        return false;
      }
    });
}

/** The paths a process has open. */
function openFiles(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
  } catch {
    return [];
  }
}

const serveIn = (home: string) => startServer({ host: "127.0.0.1", port: 0, maxRuns: 1, registry, env: { OD_HOME: home } });

describe("OD_HOME", () => {
  test("a live od serve owns it and a second is refused; a stale server.pid naming a live process that is not od is not in the way", async () => {
    await using tmp = tmpdir();
    const home = join(tmp.path, ".od");
    mkdirSync(home);
    const other = Bun.spawn(["sleep", "30"]); // a dead server's pid, now some other program's
    try {
      writeFileSync(join(home, "server.pid"), `${other.pid}\n`);
      const first = serveIn(home);
      try {
        expect(readFileSync(join(home, "server.pid"), "utf8")).toBe(`${process.pid}\n`);
        const token = readFileSync(first.tokenFile, "utf8");
        expect(() => serveIn(home)).toThrow(
          expect.objectContaining({ code: "INVALID_REQUEST", message: `Another od serve (pid ${process.pid}) is using ${home}` }),
        );
        expect(readFileSync(first.tokenFile, "utf8")).toBe(token);
      } finally {
        await first.stop();
      }
      expect(existsSync(join(home, "server.pid"))).toBe(false);
      await serveIn(home).stop(); // stopped, it leaves the home free
    } finally {
      other.kill();
      await other.exited;
    }
  });

  test("the claim is not inherited: an agent the server spawned holds no lock on OD_HOME", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "x" } }, { hang: true }]);
    const server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 1, registry, env: fake.env });
    try {
      const headers = { "x-od-token": server.token, "content-type": "application/json" };
      const body = JSON.stringify({ agent: "fake", prompt: "hi", cwd: tmp.path });
      const { runId } = (await (await fetch(new URL("api/runs", server.url), { method: "POST", headers, body })).json()) as {
        runId: string;
      };
      await readFrames((await fetch(new URL(`api/runs/${runId}/events`, server.url), { headers })).body!, (f) => f.event === "text.delta");
      // Every process this one spawned (the agent among them): none has a file of OD_HOME open.
      const open = children(process.pid).flatMap((pid) => openFiles(pid));
      expect(open.length).toBeGreaterThan(0);
      expect(open.filter((path) => path.startsWith(fake.env.OD_HOME!))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test("a home that cannot be made or written is a STORAGE error naming it, and frees the port", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "file"), "");
    const home = join(tmp.path, "file", ".od"); // under a file: not a directory
    expect(() => serveIn(home)).toThrow(
      expect.objectContaining({ code: "STORAGE", message: expect.stringContaining(home), hint: expect.stringContaining("OD_HOME") }),
    );
    expect(() => serveIn("/proc/od-home")).toThrow(expect.objectContaining({ code: "STORAGE" }));
  });

  test("od serve on a home it cannot write exits 74 with one clear message, no stack trace", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "file"), "");
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: join(tmp.path, "file", ".od"), NO_COLOR: "1" };
    const proc = Bun.spawn([DIST_OD, "serve", "--port", "0"], { env, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(74);
    expect(stderr).toContain(`od: Cannot write OD_HOME (${env.OD_HOME})`);
    expect(stderr).toContain("[STORAGE]");
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
