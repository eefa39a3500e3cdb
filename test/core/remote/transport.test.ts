/** RemoteProcess's stdin: a protocol agent's ("pipe") stays open for its driver's messages, and gets nothing else. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { RemoteProcess } from "../../../src/core/remote/transport.ts";
import { tmpdir } from "../../helpers.ts";
import { recordingEngine } from "./engine.ts";

test('a protocol agent ("pipe") gets its driver\'s messages on stdin, and no prompt', async () => {
  await using tmp = tmpdir();
  const bin = join(tmp.path, "bin");
  recordingEngine(bin, "docker");
  const agent = new RemoteProcess({
    target: { kind: "docker", container: "dev" },
    argv: ["cat"],
    cwd: "",
    remoteEnv: {},
    localEnv: { PATH: `${bin}:/usr/bin:/bin` },
    stdin: "pipe",
    engine: { controlDir: tmp.path },
  });
  agent.send({ type: "prompt", message: "hi" });
  agent.closeStdin();
  const lines: string[] = [];
  for await (const frame of agent.lines()) if (frame.kind === "line") lines.push(frame.text);
  await agent.exited;
  expect(lines).toEqual([JSON.stringify({ type: "prompt", message: "hi" })]);
});
