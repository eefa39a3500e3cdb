// Reads one 100 MB line (no newline, ever) from the fake agent through AgentProcess, in a
// process of its own so the figure is not blurred by the test runner's heap, and prints
// {frames, growthBytes} as JSON. Used by test/core/process.test.ts.
import { AgentProcess } from "../../src/core/os/process.ts";
import { FAKE_AGENT, installFake, tmpdir } from "../helpers.ts";

const MB = 1024 * 1024;
await using tmp = tmpdir();
const fake = installFake(tmp.path, "agent", [{ raw: "first\n" }, { bigLine: 100 * MB, newline: false }]);
const proc = new AgentProcess({ cmd: [process.execPath, FAKE_AGENT], cwd: tmp.path, env: fake.env, maxLineBytes: 4 * MB });
Bun.gc(true);
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
const frames = [];
for await (const f of proc.lines()) {
  frames.push(f);
  peak = Math.max(peak, process.memoryUsage().rss);
}
await proc.exited;
clearInterval(sampler);
process.stdout.write(JSON.stringify({ frames, growthBytes: peak - before }));
