import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { piRpc } from "../../../src/core/protocols/pi-rpc.ts";
import { IMAGE_LIMITS, loadImages } from "../../../src/core/run/images.ts";
import { collect, FAKE_ACP, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { fakeAcpAdapter, fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const acpWithImages = validateAdapter({ ...fakeAcpAdapter, capabilities: { ...fakeAcpAdapter.capabilities, images: true } });
const registry = createRegistry([fakeAdapter, acpWithImages]);

describe("images", () => {
  test("files are checked before anything starts: type, existence, regular file, size, count", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "a.png"), PNG);
    writeFileSync(join(tmp.path, "notes.txt"), "x");
    writeFileSync(join(tmp.path, "huge.png"), Buffer.alloc(IMAGE_LIMITS.bytes + 1));
    mkdirSync(join(tmp.path, "dir.png"));
    expect(loadImages(["a.png"], tmp.path)).toEqual([
      { path: join(tmp.path, "a.png"), mimeType: "image/png", data: PNG.toString("base64") },
    ]);
    for (const [path, why] of [
      ["notes.txt", "not a supported image"],
      ["missing.png", "no such file"],
      ["dir.png", "not a regular file"],
      ["huge.png", "limit"],
    ] as const)
      expect(() => loadImages([path], tmp.path)).toThrow(why);
    expect(() => loadImages(Array(IMAGE_LIMITS.count + 1).fill("a.png"), tmp.path)).toThrow("Too many images");
  });

  test("an agent without native images is refused before spawning, naming the ones that accept them", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "a.png"), PNG);
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "x" } }]);
    const events = await collect(
      runAgent({ agent: "fake", prompt: "look", cwd: tmp.path, images: ["a.png"] }, { registry, env: fake.env }),
    );
    expect(ofType(events, "error")[0]).toMatchObject({ code: "INVALID_REQUEST", hint: "Agents that accept images: fake-acp." });
    expect(() => fake.recorded()).toThrow(); // never started
  });

  test("pi gets them in its RPC prompt; an ACP agent as image blocks, if it says it takes them", async () => {
    const images = [{ path: "/x/a.png", mimeType: "image/png", data: "AAAA" }];
    const { send } = piRpc.start({ agent: { name: "Pi" }, prompt: "look", cwd: "/w", mode: "edit", images });
    expect(send[1]).toMatchObject({ type: "prompt", message: "look", images: [{ type: "image", data: "AAAA", mimeType: "image/png" }] });

    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "a.png"), PNG);
    const turn = [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a square" } } }];
    const ok = installFake(tmp.path, "fake-acp", { images: true, turn }, FAKE_ACP);
    const events = await collect(
      runAgent({ agent: "fake-acp", prompt: "look", cwd: tmp.path, images: ["a.png"] }, { registry, env: ok.env }),
    );
    expect(finished(events).status).toBe("succeeded");
    const prompt = readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((m) => m.method === "session/prompt");
    expect(prompt.params.prompt).toEqual([
      { type: "text", text: "look" },
      { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    ]);

    const no = installFake(tmp.path, "fake-acp", { images: false, turn }, FAKE_ACP);
    const refused = await collect(
      runAgent({ agent: "fake-acp", prompt: "look", cwd: tmp.path, images: ["a.png"] }, { registry, env: no.env }),
    );
    expect(ofType(refused, "error")[0]).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("does not accept images"),
    });
  });
});
