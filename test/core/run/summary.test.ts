import { describe, expect, spyOn, test } from "bun:test";
import { readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import type { OdEventBody } from "../../../src/core/contract/events.ts";
import { findMarked, runMark } from "../../../src/core/os/reap.ts";
import { MAX_RESULT_TEXT, Summary } from "../../../src/core/run/summary.ts";
import * as changes from "../../../src/core/workspace/changes.ts";
import { MAX_DIFF_BYTES } from "../../../src/core/workspace/git.ts";
import { collect, finished, installFake, ofType, ROOT, tmpdir } from "../../helpers.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

describe("run result", () => {
  test("the summary before run.finished: text, tool calls, files changed with their git diff, raw tail", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    // A config the agent could have written: colour, and commands git would run for a diff. The summary uses none of them.
    const ran = join(tmp.path, "ran");
    Bun.spawnSync([
      "sh",
      "-c",
      `mkdir ${repo} && cd ${repo} && git init -q && echo one > a.txt && echo "*.txt diff=x filter=y" > .gitattributes && git add a.txt .gitattributes && git -c user.name=t -c user.email=t@t commit -qm init`,
    ]);
    const configs = [
      ["color.ui", "always"],
      ["diff.external", "false"],
      ["diff.x.textconv", `touch ${ran}-textconv; cat`],
      ["core.fsmonitor", `touch ${ran}-fsmonitor`],
      ["filter.y.clean", `touch ${ran}-filter; cat`],
      ["filter.y.required", "true"],
    ];
    for (const [key, value] of configs) Bun.spawnSync(["git", "config", key!, value!], { cwd: repo });
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      { stdout: { t: "tool", id: "c1", name: "Write" } },
      { touch: "new.txt" },
      { touch: "a.txt" },
      { stdout: { t: "result", id: "c1" } },
      { raw: "not json\n" },
      { stdout: { t: "text", v: "done" } },
    ]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: repo }, { registry: createRegistry([fakeAdapter]), env: fake.env }),
    );
    const [result] = ofType(events, "run.result");
    expect(result).toMatchObject({
      text: "done",
      toolCalls: [{ id: "c1", name: "Write", isError: false }],
      files: ["a.txt", "new.txt"],
      rawTail: "not json\n",
    });
    expect(result!.diff).toStartWith("diff --git a/a.txt b/a.txt\n");
    expect(result!.diff).toContain("\n-one\n+");
    expect(readdirSync(tmp.path).filter((f) => f.startsWith("ran-"))).toEqual([]);
    expect(events.at(-2)?.type).toBe("run.result");
    expect(finished(events).status).toBe("succeeded");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });

  test("a file rewritten to the same size is changed; files left alone are not", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "work");
    Bun.spawnSync(["mkdir", dir]);
    const sameSize = `${"x".repeat("written by the fake agent\n".length - 1)}\n`;
    writeFileSync(join(dir, "same.txt"), sameSize);
    writeFileSync(join(dir, "kept.txt"), sameSize);
    const past = new Date(Date.now() - 60_000);
    for (const f of ["same.txt", "kept.txt"]) utimesSync(join(dir, f), past, past);
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { touch: "same.txt" }, { stdout: { t: "text", v: "ok" } }]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: dir }, { registry: createRegistry([fakeAdapter]), env: fake.env }),
    );
    expect(ofType(events, "run.result")[0]).toMatchObject({ files: ["same.txt"], diff: undefined });
  });

  test("the picture of the folder is taken before the agent is spawned, so no agent can write before it", async () => {
    await using tmp = tmpdir();
    const runId = crypto.randomUUID();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "ok" } }]);
    // What carries the run's mark when the picture is taken: the agent, if it was spawned already.
    let atPicture: number[] | undefined;
    const real = changes.localChanges;
    const spy = spyOn(changes, "localChanges").mockImplementation((cwd, skip) => {
      const source = real(cwd, skip);
      return { ...source, snapshot: () => ((atPicture = findMarked([runMark(runId)])), source.snapshot()) };
    });
    try {
      await collect(
        runAgent({ agent: "fake", prompt: "x", cwd: tmp.path }, { registry: createRegistry([fakeAdapter]), env: fake.env, runId }),
      );
    } finally {
      spy.mockRestore();
    }
    expect(atPicture).toEqual([]);
  });

  test("the final text is capped: past 1 MiB it is cut, and says so, and no more of it is kept", async () => {
    const summary = new Summary(undefined);
    const chunk = "x".repeat(1000);
    for (let i = 0; i < 2 * 1024; i++) summary.observe({ type: "text.delta", id: "t", text: chunk });
    const { text } = await summary.result();
    expect(text.startsWith("x".repeat(MAX_RESULT_TEXT))).toBe(true);
    expect(text.slice(MAX_RESULT_TEXT)).toBe(`\n[od: the answer is longer than ${MAX_RESULT_TEXT} characters and was cut here]\n`);
  });

  test("a retried run's text starts afresh: no break before its first part", async () => {
    const summary = new Summary(undefined);
    const started: OdEventBody = { type: "run.started", agent: "a", bin: "a", argv: [], cwd: "/", mode: "edit" };
    summary.observe(started);
    summary.observe({ type: "text.delta", id: "m1", text: "half an ans" });
    summary.observe(started);
    summary.observe({ type: "text.delta", id: "m1", text: "The answer." });
    expect((await summary.result()).text).toBe("The answer.");
  });

  test("od's own home under the working directory is not the agent's work: its run logs are left out", async () => {
    await using tmp = tmpdir();
    const home = join(tmp.path, ".od");
    Bun.spawnSync(["mkdir", "-p", join(home, "runs")]);
    const summary = new Summary(tmp.path, [home]);
    summary.launching();
    summary.observe({ type: "run.started", agent: "a", bin: "a", argv: [], cwd: tmp.path, mode: "edit" });
    writeFileSync(join(home, "runs", "events.jsonl"), "{}\n");
    writeFileSync(join(tmp.path, "work.txt"), "done\n");
    expect((await summary.result()).files).toEqual(["work.txt"]);
  });

  test("a diff longer than the bound is cut, and says so", async () => {
    await using tmp = tmpdir();
    const repo = join(tmp.path, "repo");
    Bun.spawnSync([
      "sh",
      "-c",
      `mkdir ${repo} && cd ${repo} && git init -q && echo one > data.txt && git add data.txt && git -c user.name=t -c user.email=t@t commit -qm init`,
    ]);
    const summary = new Summary(repo);
    summary.launching();
    summary.observe({ type: "run.started", agent: "a", bin: "a", argv: [], cwd: repo, mode: "edit" });
    writeFileSync(join(repo, "data.txt"), "a changed line of data\n".repeat((3 * MAX_DIFF_BYTES) / 16));
    const result = await summary.result();
    expect(result!.diff!.length).toBeLessThan(MAX_DIFF_BYTES + 100);
    expect(result!.diff).toStartWith("diff --git a/data.txt b/data.txt\n");
    expect(result!.diff).toEndWith(`[od: the output is longer than ${MAX_DIFF_BYTES} bytes and was cut here]\n`);
  });

  test("with no git on PATH the summary has no diff, and is still made", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "work");
    Bun.spawnSync([
      "sh",
      "-c",
      `mkdir ${dir} && cd ${dir} && git init -q && echo one > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm init`,
    ]);
    const script = join(tmp.path, "no-git.ts");
    writeFileSync(
      script,
      `import { writeFileSync } from "node:fs";
import { Summary } from ${JSON.stringify(join(ROOT, "src/core/run/summary.ts"))};
const summary = new Summary(${JSON.stringify(dir)});
summary.launching();
summary.observe({ type: "run.started", agent: "a", bin: "a", argv: [], cwd: ${JSON.stringify(dir)}, mode: "edit" });
writeFileSync(${JSON.stringify(join(dir, "a.txt"))}, "two\\n");
console.log(JSON.stringify(await summary.result()));`,
    );
    const p = Bun.spawnSync([process.execPath, script], { env: { PATH: join(tmp.path, "no-bin") } });
    expect(p.stderr.toString()).toBe("");
    const events = p.stdout
      .toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["run.result"]);
    expect(events[0]).toMatchObject({ files: ["a.txt"] });
    expect(events[0].diff).toBeUndefined();
  });
});
