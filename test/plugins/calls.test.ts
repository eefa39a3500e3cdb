/** A plugin's code as a run calls it: invoke() that throws is the plugin's error, and parse() runs off od's thread. */
import { describe, expect, test } from "bun:test";
import { loadRegistry } from "../../src/builtins.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";
import { pluginSource, writePlugins } from "./support.ts";

async function runPlugin(source: string, script: unknown[]) {
  await using tmp = tmpdir();
  const fake = installFake(tmp.path, "my-agent", script);
  const dir = writePlugins(tmp.path, { "my-agent.ts": source });
  const registry = await loadRegistry([dir]);
  expect(registry.errors).toEqual([]);
  return await collect(runAgent({ agent: "my-agent", prompt: "hi", cwd: tmp.path }, { registry, env: fake.env, abortGraceMs: 200 }));
}

const speaks = [{ read: "all" }, { stdout: { t: "text", v: "hello" } }, { raw: "not json\n" }, { stdout: { t: "text", v: " world" } }];

describe("a plugin's calls during a run", () => {
  test("invoke() that throws is PLUGIN_ERROR naming the plugin and its error, not a bug in od", async () => {
    const events = await runPlugin(pluginSource("my-agent", { invoke: `throw new Error("no argv today");` }), speaks);
    const [error] = ofType(events, "error");
    expect(error).toMatchObject({ code: "PLUGIN_ERROR", retryable: false });
    expect(error!.message).toContain("my-agent");
    expect(error!.message).toContain("no argv today");
    expect(error!.hint).toContain("od plugins");
    expect(finished(events)).toMatchObject({ status: "failed" });
  });

  test("a plugin's parse runs in its own thread and gives the same events: text, raw lines, finish", async () => {
    const source = pluginSource("my-agent", {
      parse: `s.n++; return r && r.t === "text" ? [{ type: "text.delta", id: "t", text: r.v }] : [{ type: "raw", stream: "stdout", line }];`,
      finish: `return [{ type: "status", label: "lines", detail: s.n + (Bun.isMainThread ? " in od's thread" : " in its own") }];`,
    });
    const events = await runPlugin(source, speaks);
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["hello", " world"]);
    expect(ofType(events, "raw").map((e) => e.line)).toEqual(["not json"]);
    expect(ofType(events, "status").find((e) => e.label === "lines")?.detail).toBe("2 in its own");
    expect(finished(events)).toMatchObject({ status: "succeeded" });
  });

  test("a parse that throws, or answers what no event is, keeps the line as raw, as before", async () => {
    const source = pluginSource("my-agent", {
      parse: `if (r.v === "boom") throw new Error("parser bug"); if (r.v === "fn") return [{ type: "text.delta", id: "t", text: () => 1 }]; return r.v === "bad" ? [{ type: "nonsense" }] : [{ type: "text.delta", id: "t", text: r.v }];`,
    });
    const script = [{ read: "all" }, ...["boom", "fn", "bad", "ok"].map((v) => ({ stdout: { t: "text", v } }))];
    const events = await runPlugin(source, script);
    expect(ofType(events, "raw").map((e) => JSON.parse(e.line).v)).toEqual(["boom", "fn", "bad"]);
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["ok"]);
    expect(finished(events)).toMatchObject({ status: "succeeded" });
  });
});
