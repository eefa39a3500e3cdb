/** The server on a disk that fills up: the live run ends cleanly, its readers are told, new runs are refused until space returns. */
import { describe, expect, test } from "bun:test";
import { writeSync } from "node:fs";
import { join } from "node:path";
import type { WriteFn } from "../../src/core/store/fault.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { alive, tmpdir } from "../helpers.ts";
import { eventsOf, readFrames, testApp } from "./support.ts";

/** A disk that is full from the write that carries "FULL" on, until freed. */
function fillingDisk() {
  const state = { full: false };
  const write: WriteFn = (fd, bytes, offset) => {
    if (state.full || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("FULL")) {
      state.full = true;
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
    }
    return writeSync(fd, bytes, offset);
  };
  return { state, write };
}

describe("storage faults", () => {
  test("a disk that fills mid-run ends it with STORAGE and one run.finished, cancels the agent, and refuses new runs (507) until space returns", async () => {
    await using tmp = tmpdir();
    const { state, write } = fillingDisk();
    const warnings: string[] = [];
    const { request, runs, fake } = testApp(
      tmp.path,
      [
        { spawn: ["sleep", "1000"] },
        { stdout: { t: "text", v: "one" } },
        { stdout: { t: "text", v: "FULL" } },
        // Long enough for the failed write (up to 25 ms behind) to stop the run on a loaded machine:
        // the cancel ends this sleep, and "after" is never written. 50 ms let it through under load.
        { sleep: 5000 },
        { stdout: { t: "text", v: "after" } },
        { hang: true },
      ],
      { log: new RunLog(join(tmp.path, "runs"), { write }), warn: (m) => warnings.push(m) },
    );
    const body = { agent: "fake", prompt: "hi", cwd: tmp.path };
    const started = await request("/api/runs", { method: "POST", json: body });
    const { runId } = (await started.json()) as { runId: string };
    const events = eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!));
    // What the disk could not take reaches the reader from memory: the text that filled it, the error, the end.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.type === "text.delta").map((e) => e.type === "text.delta" && e.text)).toEqual(["one", "FULL"]);
    expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
    // The STORAGE error and the end come from the run's own pipeline (its run.result between them).
    expect(events.filter((e) => e.type === "error")).toEqual([
      expect.objectContaining({ type: "error", code: "STORAGE", retryable: false, message: expect.stringContaining("ENOSPC") }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "failed" });
    await runs.waitFor(runId);
    expect(fake.pids().map(alive)).toEqual([false]);
    expect(((await (await request(`/api/runs/${runId}`)).json()) as { status: string }).status).toBe("failed");
    // A client that comes later still reads the whole run, its end included.
    expect(eventsOf(await readFrames((await request(`/api/runs/${runId}/events`)).body!))).toEqual(events);
    expect(warnings).toEqual([expect.stringContaining("ENOSPC")]);
    // While the disk is full, no run starts: 507, said plainly.
    const refused = await request("/api/runs", { method: "POST", json: body });
    expect(refused.status).toBe(507);
    const { error } = (await refused.json()) as { error: { code: string; message: string; hint: string } };
    expect(error).toMatchObject({ code: "STORAGE", message: expect.stringContaining("storage"), hint: expect.stringContaining("full") });
    // Once space returns, runs start again.
    state.full = false;
    const again = await request("/api/runs", { method: "POST", json: { ...body, prompt: "again" } });
    expect(again.status).toBe(201);
    await runs.shutdown();
  });
});
