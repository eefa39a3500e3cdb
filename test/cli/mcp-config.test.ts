/**
 * `od run --mcp-config <file>`: a file in .mcp.json's shape read into the run request's servers
 * (readMcpConfig, from a table of files), then end to end from the source with a fake claude: a bad
 * file is exit 2 with what is wrong and a hint; a good one reaches claude as its --mcp-config file,
 * 0600 while it runs and gone after, and its values are in no record od keeps.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readMcpConfig } from "../../src/cli/mcp-config.ts";
import { installFake, ROOT, tmpdir } from "../helpers.ts";

const ENV = { TOKEN: "t0k", EMPTY: "" };

describe("readMcpConfig", () => {
  test.each([
    [
      "stdio, as .mcp.json writes it",
      { mcpServers: { echo: { type: "stdio", command: "/opt/echo", args: ["-v"], env: { K: "v" } } } },
      [{ name: "echo", command: "/opt/echo", args: ["-v"], env: [{ name: "K", value: "v" }] }],
    ],
    [
      "stdio without type, args or env",
      { mcpServers: { bare: { command: "npx" } } },
      [{ name: "bare", command: "npx", args: [], env: [] }],
    ],
    [
      `http and sse with headers; \${VAR} and \${VAR:-default} from od's environment`,
      {
        mcpServers: {
          docs: { type: "http", url: "https://x.example/mcp", headers: { Authorization: `Bearer \${TOKEN}` } },
          ev: { type: "sse", url: `http://127.0.0.1:9/\${UNSET:-sse}` },
        },
      },
      [
        { type: "http", name: "docs", url: "https://x.example/mcp", headers: [{ name: "Authorization", value: "Bearer t0k" }] },
        { type: "sse", name: "ev", url: "http://127.0.0.1:9/sse", headers: [] },
      ],
    ],
  ])("%s", async (_what, file, want) => {
    await using tmp = tmpdir();
    const path = join(tmp.path, "mcp.json");
    writeFileSync(path, JSON.stringify(file));
    expect(readMcpConfig(path, ENV)).toEqual(want as never);
  });

  test.each([
    ["not JSON", "{", "not JSON"],
    ["no mcpServers", "{}", "mcpServers"],
    ["a server with neither command nor url", JSON.stringify({ mcpServers: { x: { args: [] } } }), "mcpServers"],
    ["a name that is a config path", JSON.stringify({ mcpServers: { "a.b": { command: "x" } } }), 'server "a.b": an MCP server\'s name'],
    [
      "a header with a line break",
      JSON.stringify({ mcpServers: { h: { type: "http", url: "https://x/", headers: { K: "a\nb" } } } }),
      "line break",
    ],
    ["a variable that is not set", JSON.stringify({ mcpServers: { e: { command: `\${NOPE}` } } }), `\${NOPE} is not set`],
  ])("%s: refused, saying what", async (_what, text, said) => {
    await using tmp = tmpdir();
    const path = join(tmp.path, "mcp.json");
    writeFileSync(path, text);
    const err = (() => {
      try {
        readMcpConfig(path, ENV);
      } catch (e) {
        return e as { code: string; message: string; hint?: string };
      }
    })();
    expect(err?.code).toBe("INVALID_REQUEST");
    expect(err?.message).toStartWith(`--mcp-config ${path}: `);
    expect(err?.message).toContain(said);
    expect(err?.hint).toContain('{"mcpServers"');
  });

  test("a file that cannot be read says so", () => {
    expect(() => readMcpConfig("/nonexistent/mcp.json", ENV)).toThrow("--mcp-config /nonexistent/mcp.json: cannot read it (ENOENT)");
  });
});

describe("od run --mcp-config", () => {
  const od = (args: string[], env: Record<string, string>) => {
    const p = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), "run", ...args], { env: { NO_COLOR: "1", ...env } });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };

  test("a bad file: exit 2, what is wrong and a hint, nothing run", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ out: "never" }]);
    writeFileSync(join(tmp.path, "bad.json"), JSON.stringify({ mcpServers: { "-x": { command: "x" } } }));
    const r = od(["--agent", "claude", "--mcp-config", join(tmp.path, "bad.json"), "--cwd", tmp.path, "hi"], fake.env);
    expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: "" });
    expect(r.err).toContain(`od: --mcp-config ${join(tmp.path, "bad.json")}: server "-x": an MCP server's name`);
    expect(r.err).toContain('hint: The file holds {"mcpServers"');
    expect(existsSync(fake.env.FAKE_RECORD!)).toBe(false);
  }, 30_000);

  test("a good file reaches claude as --mcp-config, 0600 while it runs and removed after; its secret is kept nowhere", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { stdout: { type: "result", subtype: "success", result: "ok" } }]);
    const config = { mcpServers: { echo: { command: "/opt/echo", env: { KEY: `\${SECRET_FOR_MCP}` } } } };
    writeFileSync(join(tmp.path, "mcp.json"), JSON.stringify(config));
    const env = { ...fake.env, SECRET_FOR_MCP: "s3cr3t-run", OD_HOME: join(tmp.path, "home") };
    const r = od(["--agent", "claude", "--mcp-config", join(tmp.path, "mcp.json"), "--cwd", tmp.path, "--json", "hi"], env);
    type Rec = { argv: string[]; files: Record<string, string>; modes: Record<string, string> };
    const rec = JSON.parse(readFileSync(fake.env.FAKE_RECORD!, "utf8")) as Rec;
    const file = rec.argv[rec.argv.indexOf("--mcp-config") + 1]!;
    expect(JSON.parse(rec.files[file]!)).toEqual({
      mcpServers: { echo: { type: "stdio", command: "/opt/echo", args: [], env: { KEY: "s3cr3t-run" } } },
    });
    expect([rec.modes[file], rec.modes[dirname(file)]]).toEqual(["600", "700"]);
    expect(file.startsWith(tmp.path)).toBe(false); // outside the working directory
    expect(existsSync(dirname(file))).toBe(false); // removed with the run
    expect(r.out).not.toContain("s3cr3t-run");
    expect(r.err).not.toContain("s3cr3t-run");
    const runs = join(tmp.path, "home", "runs");
    for (const id of readdirSync(runs))
      for (const f of readdirSync(join(runs, id))) expect(readFileSync(join(runs, id, f), "utf8")).not.toContain("s3cr3t-run");
  }, 30_000);
});
