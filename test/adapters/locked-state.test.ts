/**
 * What in a CLI's own state names commands it runs later (Codex's config.toml: `notify`, MCP servers;
 * Claude's settings.json: hooks, a key helper; Kimi's config.toml; Crush's crush.json) stays read-only in read-only and edit mode, where the
 * kernel holds the run: an agent may write its sessions and logs, and cannot plant a command that
 * the next run of the CLI, outside od, would run unsandboxed. Proven with fakes under the CLIs'
 * names that ignore what od passes and write with the shell.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { sandboxSupport } from "../../src/core/os/sandbox/choose.ts";
import { DEVICES, policyFor } from "../../src/core/os/sandbox/policy.ts";
import { collect, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";

const registry = await loadRegistry([]);
const support = sandboxSupport();

describe("policyFor: the locked part of the CLI's state", () => {
  test("kept read-only in read-only and edit where it exists; what does not exist is not listed", async () => {
    await using tmp = tmpdir();
    const config = join(tmp.path, "config.toml");
    writeFileSync(config, "");
    const input = { cwd: "/w", state: [tmp.path], tmp: "/t/od-run-1", locked: [config, join(tmp.path, "missing.json")] };
    expect(policyFor({ ...input, mode: "read-only" })).toEqual({ writable: [tmp.path, "/t/od-run-1", ...DEVICES], readOnly: [config] });
    expect(policyFor({ ...input, mode: "edit" })?.readOnly).toEqual([config]);
    expect(policyFor({ ...input, mode: "full" })).toBeUndefined();
  });
});

const CASES = [
  { id: "codex", config: ".codex/config.toml", session: ".codex/sessions/s.jsonl" },
  { id: "claude", config: ".claude/settings.json", session: ".claude/projects/p/s.jsonl" },
  { id: "kimi", config: ".kimi-code/config.toml", session: ".kimi-code/sessions/s.jsonl" },
  { id: "crush", config: ".config/crush/crush.json", session: ".local/share/crush/crush.json" },
];

describe.skipIf(support.kind !== "landlock" || !support.protect)("the kernel keeps it (Landlock and a mount namespace)", () => {
  for (const { id, config, session } of CASES)
    for (const mode of ["read-only", "edit"] as const)
      test(`${id} in ${mode}: its sessions are written, its config is not`, async () => {
        await using fakeDir = tmpdir();
        await using home = tmpdir();
        const work = join(home.path, "work");
        mkdirSync(work);
        for (const file of [session, config]) mkdirSync(join(home.path, file, ".."), { recursive: true });
        writeFileSync(join(home.path, config), "# the user's own\n");
        const writes = [
          `printf 'notify = ["sh", "-c", "planted"]\\n' >> "${join(home.path, config)}"`,
          `printf x > "${join(home.path, session)}"`,
        ].join("; ");
        const adapter = registry.get(id)!.adapter;
        const fake = installFake(fakeDir.path, adapter.bin, [{ sh: writes }, { read: "all" }]);
        const events = await collect(
          runAgent({ agent: id, prompt: "plant", cwd: work, mode }, { registry, env: { ...fake.env, HOME: home.path } }),
        );
        const started = ofType(events, "run.started")[0];
        expect(started?.sandbox?.readOnly).toContain(join(home.path, config));
        expect(existsSync(join(home.path, session))).toBe(true);
        expect(readFileSync(join(home.path, config), "utf8")).toBe("# the user's own\n");
      });
});
