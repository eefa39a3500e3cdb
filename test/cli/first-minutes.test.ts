/**
 * The first ten minutes (issue 31), on the compiled binary: a new user with no agent account, then
 * od's own loop pointed at a local OpenAI-compatible server (the loopback model stub).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DIST_OD, tmpdir } from "../helpers.ts";
import { startModelStub } from "../live/model-stub.ts";

/** od with exactly this environment; async, so the stub in this process can answer it. */
async function od(args: string[], env: Record<string, string>) {
  const p = Bun.spawn([DIST_OD, ...args], { env: { NO_COLOR: "1", ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

const FOUR = ["qwen3-coder", "llama3.3", "gpt-oss:20b", "deepseek-r1"];
const stub = await startModelStub({ models: FOUR });
afterAll(() => stub.stop());
let home: { path: string; [Symbol.asyncDispose]: () => Promise<void> };
beforeAll(() => {
  home = tmpdir();
});
afterAll(() => home[Symbol.asyncDispose]());
const bare = () => ({ PATH: "/usr/bin:/bin", HOME: home.path, OD_HOME: join(home.path, ".od") });
const withApi = () => ({ ...bare(), OD_API_BASE_URL: `${stub.url}/v1` });

describe("od agents answers, and does not drown the answer", () => {
  test("nothing installed: one screen that says how to get an agent", async () => {
    const r = await od(["agents", "--refresh"], bare());
    expect(r.code).toBe(0);
    expect(r.out.split("\n").length).toBeLessThan(24);
    expect(r.out).not.toMatch(/^aider +missing/m);
    expect(r.out).toContain("agents not installed: `od agents --all` lists them");
    expect(r.out).toContain("npm install -g @anthropic-ai/claude-code");
    expect(r.out).toContain("OD_API_BASE_URL=");
  });

  test("api ready: its row first, one line for the rest; --all lists every row; --json every row as before", async () => {
    const r = await od(["agents", "--refresh"], withApi());
    const lines = r.out.trim().split("\n");
    expect(lines[1]).toMatch(/^api +ready /);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\d+ more not installed: `od agents --all` lists them$/);
    const all = await od(["agents", "--all"], withApi());
    expect(all.out.trim().split("\n")[1]).toMatch(/^api +ready /);
    expect(all.out).toMatch(/^claude +missing/m);
    const json = JSON.parse((await od(["agents", "--json"], withApi())).out) as Array<{ id: string }>;
    expect(json.length).toBe(all.out.trim().split("\n").length - 1);
    expect(json.map((x) => x.id)).toContain("aider");
  });

  test("od doctor with api ready: what is there and one line for the rest; --all adds their install commands", async () => {
    const r = await od(["doctor"], withApi());
    expect(r.out).toMatch(/^✓ api /m);
    expect(r.out).toMatch(/^! \d+ agents not installed: `od doctor --all` lists their install commands$/m);
    expect(r.out).not.toContain("npm install -g");
    expect(r.out.trim().split("\n").length).toBeLessThan(10);
    const all = await od(["doctor", "--all"], withApi());
    expect(all.out).toMatch(/claude +npm install -g @anthropic-ai\/claude-code/);
    const json = JSON.parse((await od(["doctor", "--json"], withApi())).out);
    expect(json.findings.find((f: { install?: object }) => f.install).install.claude).toBe("npm install -g @anthropic-ai/claude-code");
  });

  test("od doctor with nothing ready says how to get one, on one screen", async () => {
    const r = await od(["doctor"], bare());
    expect(r.code).toBe(1);
    expect(r.out).toContain("npm install -g @anthropic-ai/claude-code");
    expect(r.out).toContain("OD_API_BASE_URL=");
    expect(r.out.trim().split("\n").length).toBeLessThan(20);
  });
});

/** A port nothing listens on: a server started, then stopped. */
async function closedPort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

describe("the api agent knows its own server", () => {
  test("od models --agent api: the endpoint's four models", async () => {
    const r = await od(["models", "--agent", "api"], withApi());
    expect(r.code).toBe(0);
    expect(
      r.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/ +/)[0]),
    ).toEqual(["default", ...FOUR]);
    expect(r.err).toContain(`${stub.url}/v1/models`);
    const json = JSON.parse((await od(["models", "--agent", "api", "--json"], withApi())).out);
    expect(json).toMatchObject({ agent: "api", models: ["default", ...FOUR], source: "catalog", exhaustive: false });
  });

  test("an endpoint nobody listens at: said at once, with its URL and why (exit 69), and api is not ready", async () => {
    await using tmp = tmpdir();
    const port = await closedPort();
    const down = { ...bare(), OD_API_BASE_URL: `http://127.0.0.1:${port}/v1` };
    for (const model of [[], ["--model", "qwen3-coder"]]) {
      const started = performance.now();
      const r = await od(["run", "--agent", "api", ...model, "--cwd", tmp.path, "hi"], down);
      expect({ model, code: r.code }).toEqual({ model, code: 69 });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(r.err).toContain(`Cannot reach http://127.0.0.1:${port}/v1/`);
      expect(r.err).toContain("connection refused");
      expect(r.err).toContain("[ENDPOINT_UNREACHABLE]");
      expect(r.err).not.toContain("retrying");
    }
    const agents = await od(["agents", "--refresh"], down);
    expect(agents.out).toMatch(/^api +broken /m);
    expect(agents.err).toContain(`api: Cannot reach http://127.0.0.1:${port}/v1/models: connection refused`);
    const models = await od(["models", "--agent", "api"], down);
    expect(models.code).toBe(69);
    expect(models.err).toContain("[ENDPOINT_UNREACHABLE]");
  });
});
