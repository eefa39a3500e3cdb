/** Connections clients leave open cost the server a bounded share: idle ones are closed, too many are refused, event streams stay. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ConnectionGuard, type ConnectionServer, connectionCap } from "../../src/server/connections.ts";
import { startServer } from "../../src/server/serve.ts";
import { DIST_OD, installFake, tmpdir } from "../helpers.ts";
import { readFrames, registry } from "./support.ts";

/** A raw TCP connection that sends `request` (if any) and records what comes back and when it closes. */
async function rawSocket(port: number, request?: string) {
  let data = "";
  const closed = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: { data: (_s, d) => void (data += d.toString()), close: () => closed.resolve(), error: () => closed.resolve() },
  });
  if (request) socket.write(request);
  return { socket, closed: closed.promise, data: () => data };
}

const within = <T>(ms: number, p: Promise<T>) => Promise.race([p.then(() => true), Bun.sleep(ms).then(() => false)]);

describe("connection limits", () => {
  test("the guard closes idle connections when new ones reach the cap, and refuses requests beyond it with a quick 503", async () => {
    const server = {
      pendingRequests: 1,
      swept: 0,
      closeIdleConnections: () => ++server.swept,
      requestIP: (r: Request) => ({ address: "127.0.0.1", port: Number(r.headers.get("port")) }),
    };
    const guard = new ConnectionGuard(4);
    const req = (port: number) => new Request("http://x/", { headers: { port: String(port) } });
    for (const port of [1, 2, 3, 1, 2, 3]) expect(guard.admit(req(port), server as ConnectionServer)).toBeUndefined();
    expect(server.swept).toBe(0);
    expect(guard.admit(req(4), server)).toBeUndefined(); // the fourth connection fills the cap
    expect(guard.admit(req(5), server)).toBeUndefined(); // the fifth: idle ones are closed first
    expect(server.swept).toBe(1);
    server.pendingRequests = 5; // five requests in flight (event streams, say) on a cap of four
    const refused = guard.admit(req(6), server)!;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("connection")).toBe("close");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    // The cap follows the files the process may open.
    expect([connectionCap(512, 256), connectionCap(512, 100_000), connectionCap(512, undefined), connectionCap(4, 256)]).toEqual([
      192, 512, 512, 4,
    ]);
  });

  test("a real server: event streams count against the cap, a request beyond it gets 503 at once; idle connections are closed, streams are not", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "x" } }, { hang: true }]);
    const server = startServer({
      host: "127.0.0.1",
      port: 0,
      maxRuns: 1,
      registry,
      env: fake.env,
      maxConnections: 3,
      idleTimeoutSeconds: 1,
    });
    const port = Number(new URL(server.url).port);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(new URL(`api${path}`, server.url), { ...init, headers: { "x-od-token": server.token, "content-type": "application/json" } });
    try {
      const { runId } = (await (
        await api("/runs", { method: "POST", body: JSON.stringify({ agent: "fake", prompt: "hi", cwd: tmp.path }) })
      ).json()) as { runId: string };
      const streams = await Promise.all([1, 2, 3].map(() => api(`/runs/${runId}/events`)));
      const refused = await fetch(new URL("api/health", server.url));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("connection")).toBe("close");
      await streams[2]!.body!.cancel();
      await streams[1]!.body!.cancel();
      for (let i = 0; i < 100 && (await fetch(new URL("api/health", server.url))).status !== 200; i++) await Bun.sleep(20);
      // A keep-alive connection left idle is closed by the server (Bun checks timeouts every few seconds)...
      const idle = await rawSocket(port, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(await within(9000, idle.closed)).toBe(true);
      expect(idle.data()).toStartWith("HTTP/1.1 200");
      // ...while the event stream, quiet all that time, is still open and gets the run's end.
      await api(`/runs/${runId}/cancel`, { method: "POST", body: "{}" });
      const frames = await readFrames(streams[0]!.body!);
      expect(frames.at(-1)).toMatchObject({ event: "run.finished" });
    } finally {
      await server.stop();
    }
  }, 15_000);

  test("od serve with 256 files to open stays reachable past 300 idle keep-alive connections without a token", async () => {
    await using tmp = tmpdir();
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: join(tmp.path, ".od"), NO_COLOR: "1" };
    const proc = Bun.spawn(["sh", "-c", 'ulimit -n 256 && exec "$0" serve --port 0', DIST_OD], { env, stdout: "pipe", stderr: "ignore" });
    const sockets: Array<Awaited<ReturnType<typeof rawSocket>>> = [];
    try {
      let out = "";
      for await (const chunk of proc.stdout) if ((out += new TextDecoder().decode(chunk)).includes("\n")) break;
      const url = new URL(/http:\/\/\S+/.exec(out)![0]);
      for (let i = 0; i < 300; i++)
        sockets.push(await rawSocket(Number(url.port), `GET /api/agents HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`));
      const health = await fetch(new URL("/api/health", url), { signal: AbortSignal.timeout(5000) });
      expect(health.status).toBe(200);
    } finally {
      for (const s of sockets) s.socket.end();
      proc.kill("SIGKILL");
      await proc.exited;
    }
  }, 20_000);
});
