/** Command-line budget guards, pure: spec §5 vectors, each limit exactly and one over (pipeline: budget-pipeline.test.ts). */
import { describe, expect, test } from "bun:test";
import { checkCommandLineBudget, checkPromptArgBudget, PROMPT_TOO_LARGE_HINT, promptArgLimit } from "../../../src/core/os/budget.ts";
import { EXE_LINE_LIMIT, SHIM_LINE_LIMIT, windowsLaunch } from "../../../src/core/os/windows.ts";

const deepseek = { id: "deepseek", name: "DeepSeek TUI", prompt: { via: "argv" as const, maxPromptArgBytes: 30_000 } };
const kimi = { id: "kimi", name: "Kimi", prompt: { via: "argv" as const, maxPromptArgBytes: 30_000 } };
const stdinAdapter = { id: "claude", name: "Claude Code", prompt: { via: "stdin" as const } };

const SHIM = "C:\\Users\\Tester\\AppData\\Roaming\\npm\\deepseek.cmd";
const EXE = "C:\\Tools\\deepseek.exe";
const COMSPEC = "C:\\WINDOWS\\system32\\cmd.exe";
const args = (prompt: string) => ["exec", "--auto", prompt];
const line = (bin: string, prompt: string, comSpec = "cmd.exe") => windowsLaunch([bin, ...args(prompt)], comSpec).commandLine.length;
/** A prompt of `x` so the projected line is exactly `target` characters. */
function promptForLine(bin: string, target: number, comSpec = "cmd.exe"): string {
  return "x".repeat(target - (line(bin, "x", comSpec) - 1));
}

describe("guard 1: raw prompt bytes", () => {
  // Spec §5.1 vectors: [adapter, prompt, platform, refused, bytes, limit].
  test.each([
    [deepseek, "x".repeat(30_001), "win32", true, 30_001, 30_000],
    [deepseek, "x".repeat(30_000), "win32", false, 30_000, 30_000],
    [deepseek, "汉".repeat(10_001), "win32", true, 30_003, 30_000],
    [deepseek, "汉".repeat(10_000), "win32", false, 30_000, 30_000],
    [deepseek, "😀".repeat(7_501), "win32", true, 30_004, 30_000],
    [deepseek, "😀".repeat(7_500), "win32", false, 30_000, 30_000],
    [deepseek, "x".repeat(50_000), "linux", false, 50_000, 100_000],
    [deepseek, "x".repeat(50_000), "darwin", false, 50_000, 262_144],
    [deepseek, "x".repeat(50_000), "win32", true, 50_000, 30_000],
    [deepseek, "x".repeat(200_000), "linux", true, 200_000, 100_000],
    [deepseek, "x".repeat(100_000), "linux", false, 100_000, 100_000],
    [deepseek, "x".repeat(100_001), "linux", true, 100_001, 100_000],
    [kimi, "x".repeat(138_000), "darwin", false, 138_000, 262_144],
    [kimi, "x".repeat(262_144), "darwin", false, 262_144, 262_144],
    [kimi, "x".repeat(262_145), "darwin", true, 262_145, 262_144],
    [kimi, "x".repeat(300_000), "darwin", true, 300_000, 262_144],
  ] as const)("%#: %s, %s -> refused %p (%d of %d bytes)", (adapter, prompt, platform, refused, bytes, limit) => {
    const r = checkPromptArgBudget(adapter, prompt, platform);
    expect(r !== null).toBe(refused);
    expect(promptArgLimit(adapter.prompt.maxPromptArgBytes, platform)).toBe(limit);
    expect(Buffer.byteLength(prompt)).toBe(bytes);
    if (r) {
      expect(r).toMatchObject({ kind: "raw", length: bytes, limit });
      expect(r.error.code).toBe("AGENT_PROMPT_TOO_LARGE");
      expect(r.error.message).toContain(adapter.name);
      expect(r.error.message).toContain("only as a command-line argument");
      expect(r.error.message).toContain(`(${bytes} > ${limit} bytes`);
      expect(r.error.hint).toBe(PROMPT_TOO_LARGE_HINT);
    }
  });

  test("a declared budget above the floor wins; an adapter without one is never checked", () => {
    expect(promptArgLimit(500_000, "linux")).toBe(500_000);
    expect(
      checkPromptArgBudget({ ...deepseek, prompt: { via: "argv", maxPromptArgBytes: 500_000 } }, "x".repeat(400_000), "linux"),
    ).toBeNull();
    expect(checkPromptArgBudget(stdinAdapter, "x".repeat(10_000_000), "win32")).toBeNull();
  });

  test("the hint says what to do", () => {
    expect(PROMPT_TOO_LARGE_HINT).toMatch(/skills.*context.*shorten the conversation.*stdin/);
  });
});

describe("guards 2 and 3: the projected Windows command line", () => {
  // Spec vectors: [bin, prompt, projected length, refused].
  test.each([
    ["C:\\npm\\deepseek.cmd", "hi", 53, false],
    [SHIM, '"'.repeat(29_900), 59_882, true],
    [SHIM, "%DEEPSEEK_API_KEY%".repeat(200), 4_882, false],
    [EXE, "hi there", 44, false],
    [EXE, '"'.repeat(29_900), 59_836, true],
  ] as const)("%s with a %d-char prompt projects to %d chars", (bin, prompt, length, refused) => {
    expect(line(bin, prompt)).toBe(length);
    expect(checkCommandLineBudget(deepseek, bin, args(prompt), { platform: "linux", env: {} }) !== null).toBe(refused);
  });

  test("the %DEEPSEEK_API_KEY% token costs 3 more characters per percent and never expands", () => {
    const launch = windowsLaunch([SHIM, ...args("%DEEPSEEK_API_KEY%".repeat(200))], "cmd.exe");
    expect(launch.cmd[4]!.length - 2 - SHIM.length - " exec --auto ".length).toBe(4_802);
    expect(launch.commandLine).not.toMatch(/%DEEPSEEK_API_KEY%/);
  });

  // Each limit exactly and one unit over, for plain, CJK and emoji prompts, with the real ComSpec counted.
  test.each([
    ["shim", SHIM, SHIM_LINE_LIMIT, "x"],
    ["shim", SHIM, SHIM_LINE_LIMIT, "汉"],
    ["shim", SHIM, SHIM_LINE_LIMIT, "😀"],
    ["exe", EXE, EXE_LINE_LIMIT, "x"],
    ["exe", EXE, EXE_LINE_LIMIT, "汉"],
    ["exe", EXE, EXE_LINE_LIMIT, "😀"],
  ] as const)("%s: %j repeated up to %d chars passes, one more is refused", (kind, bin, limit, unit) => {
    const env = { ComSpec: COMSPEC };
    const base = line(bin, unit, COMSPEC) - unit.length; // the line without the prompt's characters
    const n = Math.floor((limit - base) / unit.length);
    const atLimit = unit.repeat(n);
    const over = unit.repeat(n + 1);
    // One UTF-16 unit per character, two for an emoji (a surrogate pair).
    expect(line(bin, atLimit, COMSPEC)).toBe(unit.length === 1 ? limit : base + 2 * n);
    expect(checkCommandLineBudget(deepseek, bin, args(atLimit), { platform: "win32", env })).toBeNull();
    const r = checkCommandLineBudget(deepseek, bin, args(over), { platform: "win32", env });
    expect(r).toMatchObject({ kind, length: base + unit.length * (n + 1), limit });
    expect(r!.error.message).toContain(`(${r!.length} > ${limit} chars`);
  });

  test("a quote-heavy shim prompt: every quote costs two characters, up to the limit and not one quote more", () => {
    const env = { ComSpec: COMSPEC };
    const base = line(SHIM, "x", COMSPEC) - 1; // k quotes make a token of 2k + 2
    const k = Math.floor((SHIM_LINE_LIMIT - base - 2) / 2);
    expect(line(SHIM, '"'.repeat(k), COMSPEC)).toBe(base + 2 * k + 2);
    expect(base + 2 * k + 2).toBeGreaterThan(SHIM_LINE_LIMIT - 2);
    expect(checkCommandLineBudget(deepseek, SHIM, args('"'.repeat(k)), { platform: "win32", env })).toBeNull();
    expect(checkCommandLineBudget(deepseek, SHIM, args('"'.repeat(k + 1)), { platform: "win32", env })?.kind).toBe("shim");
  });

  test("a 9,000-character prompt to a .cmd adapter is refused with cmd.exe's limit named; the same prompt to an .exe passes", () => {
    const prompt = "y".repeat(9_000);
    const r = checkCommandLineBudget(deepseek, SHIM, args(prompt), { platform: "win32", env: { ComSpec: COMSPEC } });
    expect(r?.kind).toBe("shim");
    expect(r!.error.message).toContain("DeepSeek TUI");
    expect(r!.error.message).toContain("cmd.exe");
    expect(r!.error.message).toContain("8191");
    expect(r!.error.message).toContain(`(${9_000 + SHIM.length + COMSPEC.length + 25} > ${SHIM_LINE_LIMIT} chars`);
    expect(checkCommandLineBudget(deepseek, EXE, args(prompt), { platform: "win32", env: {} })).toBeNull();
  });

  test("the real ComSpec is counted: a prompt that fits with `cmd.exe` can overflow with a long ComSpec", () => {
    const prompt = promptForLine(SHIM, SHIM_LINE_LIMIT);
    expect(checkCommandLineBudget(deepseek, SHIM, args(prompt), { platform: "win32", env: {} })).toBeNull();
    expect(checkCommandLineBudget(deepseek, SHIM, args(prompt), { platform: "win32", env: { ComSpec: COMSPEC } })?.length).toBe(
      SHIM_LINE_LIMIT + 20,
    );
  });

  test("the two projections are mutually exclusive; POSIX paths and stdin adapters are never checked", () => {
    const prompt = '"'.repeat(29_900);
    expect(checkCommandLineBudget(deepseek, SHIM, args(prompt), { platform: "linux" })?.kind).toBe("shim");
    expect(checkCommandLineBudget(deepseek, EXE, args(prompt), { platform: "linux" })?.kind).toBe("exe");
    expect(checkCommandLineBudget(deepseek, "/usr/local/bin/deepseek", args(prompt), { platform: "linux" })).toBeNull();
    expect(
      checkCommandLineBudget(deepseek, "C:\\Program Files\\DeepSeek\\deepseek.exe", args("x".repeat(20_000)), { platform: "win32" }),
    ).toBeNull();
    expect(checkCommandLineBudget(stdinAdapter, SHIM, args(prompt), { platform: "win32" })).toBeNull();
  });

  test("empty arguments and trailing backslashes are counted as they are sent", () => {
    expect(line(EXE, "")).toBe(EXE.length + " exec --auto ".length + 2);
    expect(line(SHIM, "")).toBe("cmd.exe /d /s /c ".length + 2 + SHIM.length + " exec --auto ".length + 2);
    expect(line(SHIM, "C:\\My Dir\\")).toBe(line(SHIM, "C:\\My Dir") + 2); // one backslash doubled before the closing quote
    expect(line(EXE, "C:\\My Dir\\")).toBe(line(EXE, "C:\\My Dir") + 2);
  });
});
