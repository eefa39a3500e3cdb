/** Windows quoting, launch and PATHEXT resolution: pure, run on any host with Windows paths. */
import { describe, expect, test } from "bun:test";
import { findOnPath } from "../../../src/core/os/resolve.ts";
import { comSpecOf, EXE_LINE_LIMIT, isBatchFile, projectLaunch, SHIM_LINE_LIMIT, windowsLaunch } from "../../../src/core/os/windows.ts";
import { nameCandidates, pathExtensions, whichWindows } from "../../../src/core/os/windows-path.ts";
import { quoteCmdArg, quoteExeArg } from "../../../src/core/os/windows-quote.ts";
import { crtSplit, throughShim } from "../../windows/model.ts";

/** The seeds' cmd quoting (spec §5.2), kept here to show where od's differs. */
const seedQcmd = (s: string) => (/[\s"&<>|^%]/.test(s) ? `"${s.replaceAll('"', '""').replaceAll("%", '"^%"')}"` : s);

// Spec §5.2 vectors: [input, quoted, length].
const CMD_VECTORS: Array<[string, string, number]> = [
  ["hello", "hello", 5],
  ["a b", '"a b"', 5],
  ['say "hi"', '"say ""hi"""', 12],
  ["a&b", '"a&b"', 5],
  ["50%", '"50"^%""', 8],
  ["%PATH%", '""^%"PATH"^%""', 14],
];
// Beyond the seeds: backslashes before a quote od adds are doubled, the empty argument survives, parentheses are quoted.
const CMD_FIXED: Array<[string, string]> = [
  ["C:\\My Dir\\", '"C:\\My Dir\\\\"'],
  ['x\\"y', '"x\\\\""y"'],
  ["x y\\\\", '"x y\\\\\\\\"'],
  ["100\\%", '"100\\\\"^%""'],
  ["", '""'],
  ["trail\\", "trail\\"],
  ["(paren)", '"(paren)"'],
  ["汉字😀", "汉字😀"],
  ["汉字 😀", '"汉字 😀"'],
];
// Spec §5.3 vectors (libuv quote_cmd_arg): [input, quoted, length].
const EXE_VECTORS: Array<[string, string, number]> = [
  ["", '""', 2],
  ["abc", "abc", 3],
  ["a b", '"a b"', 5],
  ['a"b', '"a\\"b"', 6],
  ["C:\\My Dir\\", '"C:\\My Dir\\\\"', 13],
  ['x\\"y', '"x\\\\\\"y"', 8],
  ["x y\\\\", '"x y\\\\\\\\"', 9],
  // libuv looks only at space, tab and quote: a bare line feed or ideographic space is not quoted.
  ["a\nb", "a\nb", 3],
  ["汉\u3000字", "汉\u3000字", 3],
  ["hello\\world", "hello\\world", 11],
  ['hello""world', '"hello\\"\\"world"', 16],
];

describe("quoteCmdArg (cmd.exe shim tokens)", () => {
  test.each(CMD_VECTORS)("spec vector %j -> %j (%d chars)", (input, quoted, length) => {
    expect(quoteCmdArg(input)).toBe(quoted);
    expect(quoteCmdArg(input).length).toBe(length);
    expect(seedQcmd(input)).toBe(quoted);
  });

  test.each(CMD_FIXED)("od's quoting of %j is %j", (input, quoted) => {
    expect(quoteCmdArg(input)).toBe(quoted);
  });

  const ROUND_TRIP = [
    ...CMD_VECTORS.map((v) => v[0]),
    ...CMD_FIXED.map((v) => v[0]),
    "tab\there",
    "x & echo INJECTED",
    "a^b",
    "<lt> >gt |pipe",
    "!bang!",
    '"',
    '""',
    "\\",
    '\\"',
    "%%",
    "%A%B%",
  ];
  test.each(ROUND_TRIP.map((s) => [s]))("%j survives cmd.exe and a %%* shim into a CRT argv, and no variable expands", (input) => {
    const launch = windowsLaunch(["C:\\npm\\deepseek.cmd", "exec", input, "last"], "C:\\WINDOWS\\system32\\cmd.exe");
    const env = { PATH: "C:\\secret-path", A: "LEAK-A", B: "LEAK-B" };
    expect(throughShim(launch.commandLine, env)).toEqual(["exec", input, "last"]);
  });

  test("the seeds' quoting loses a backslash before a quote; od's keeps it", () => {
    for (const input of ["C:\\My Dir\\", 'x\\"y', "x y\\\\"]) {
      const seeded = `C:\\WINDOWS\\system32\\cmd.exe /d /s /c "C:\\npm\\x.cmd ${seedQcmd(input)}"`;
      expect(throughShim(seeded)).not.toEqual([input]);
    }
  });
});

describe("quoteExeArg (libuv, direct CreateProcess)", () => {
  test.each(EXE_VECTORS)("vector %j -> %j (%d chars)", (input, quoted, length) => {
    expect(quoteExeArg(input)).toBe(quoted);
    expect(quoteExeArg(input).length).toBe(length);
  });

  test.each([...EXE_VECTORS.map((v) => [v[0]]), ['he said "hi" & echo %PATH% 100% ^c'], ["汉字 emoji 😀"], ["trail\\"]])(
    "%j round-trips through the CRT",
    (input) => {
      expect(crtSplit(windowsLaunch(["C:\\Program Files\\x\\x.exe", input], "cmd.exe").commandLine)).toEqual([
        "C:\\Program Files\\x\\x.exe",
        input,
      ]);
    },
  );
});

describe("windowsLaunch / projectLaunch", () => {
  test("a .cmd or .bat runs through ComSpec with verbatim arguments; the line is exactly what is joined", () => {
    const launch = windowsLaunch(["C:\\npm\\deepseek.cmd", "exec", "--auto", "hi"], "cmd.exe");
    expect(launch).toMatchObject({ kind: "shim", verbatim: true, limit: SHIM_LINE_LIMIT });
    expect(launch.cmd).toEqual(["cmd.exe", "/d", "/s", "/c", '"C:\\npm\\deepseek.cmd exec --auto hi"']);
    expect(launch.commandLine).toBe('cmd.exe /d /s /c "C:\\npm\\deepseek.cmd exec --auto hi"');
    expect(launch.commandLine.length).toBe(53); // spec §5.2 vector
    // The real ComSpec is counted, not the 7 characters of `cmd.exe`.
    expect(windowsLaunch(["C:\\npm\\deepseek.cmd", "exec", "--auto", "hi"], "C:\\WINDOWS\\system32\\cmd.exe").commandLine.length).toBe(
      53 + 20,
    );
  });

  test("a shim's cmd.exe does not look in the working directory for the programs it names", () => {
    // An npm shim runs `node` (or its own name) through cmd.exe, which looks in the current folder first:
    // a repository's node.cmd or node.exe would run, in any mode. This variable makes cmd.exe skip it.
    expect(windowsLaunch(["C:\\npm\\claude.cmd", "-p"], "cmd.exe").env).toEqual({ NoDefaultCurrentDirectoryInExePath: "1" });
    expect(windowsLaunch(["C:\\Tools\\claude.exe", "-p"], "cmd.exe").env).toEqual({});
  });

  test("an .exe is a direct CreateProcess quoted by libuv", () => {
    const launch = windowsLaunch(["C:\\Tools\\deepseek.exe", "exec", "--auto", "hi there"], "cmd.exe");
    expect(launch).toMatchObject({ kind: "exe", verbatim: false, limit: EXE_LINE_LIMIT });
    expect(launch.cmd).toEqual(["C:\\Tools\\deepseek.exe", "exec", "--auto", "hi there"]);
    expect(launch.commandLine.length).toBe(44); // spec §5.3 vector
  });

  test.each([
    ["C:\\npm\\x.cmd", true],
    ["C:\\npm\\X.BAT", true],
    ["C:\\npm\\x.Cmd", true],
    ["C:\\npm\\x.exe", false],
    ["C:\\npm\\x.cmd.exe", false],
    ["C:\\npm\\x", false],
  ])("isBatchFile(%p) is %p", (path, expected) => expect(isBatchFile(path)).toBe(expected));

  test.each([
    ["C:\\npm\\x.cmd", "linux", "shim"],
    ["c:/npm/x.exe", "linux", "exe"],
    ["\\\\server\\share\\x.exe", "darwin", "exe"],
    ["/usr/local/bin/deepseek", "linux", null],
    ["/usr/local/bin/deepseek.cmd", "linux", null],
    ["/usr/local/bin/deepseek", "win32", "exe"],
    ["", "win32", null],
  ] as const)("projectLaunch(%p) on %s is %p", (bin, platform, kind) => {
    expect(projectLaunch([bin, "x"], platform, {})?.kind ?? null).toBe(kind);
  });

  test("ComSpec is found whatever its case, with cmd.exe as the fallback for both spawning and counting", () => {
    expect(comSpecOf({ COMSPEC: "C:\\Windows\\system32\\cmd.exe" })).toBe("C:\\Windows\\system32\\cmd.exe");
    expect(comSpecOf({ ComSpec: "D:\\cmd.exe" })).toBe("D:\\cmd.exe");
    expect(comSpecOf({})).toBe("cmd.exe");
    expect(projectLaunch(["C:\\x.cmd"], "win32", { comspec: "E:\\c.exe" })?.cmd[0]).toBe("E:\\c.exe");
  });
});

describe("PATHEXT resolution", () => {
  const files = new Set([
    "C:\\npm\\deepseek",
    "C:\\npm\\deepseek.cmd",
    "C:\\Tools\\deepseek.exe",
    "C:\\Program Files\\Agent\\agent.bat",
    "D:\\x\\tool.com",
  ]);
  const isFile = (p: string) => files.has(p);

  test.each([
    ["deepseek", { PATH: "C:\\npm;C:\\Tools" }, "C:\\npm\\deepseek.cmd"], // the extension-less sh shim is skipped
    ["deepseek", { Path: "C:\\Tools;C:\\npm" }, "C:\\Tools\\deepseek.exe"], // directory order first, any case of PATH
    ["deepseek", { PATH: "C:\\npm", PATHEXT: ".EXE;.JS" }, undefined], // only .EXE is both declared and spawnable
    ["deepseek", { PATH: "C:\\npm", PATHEXT: ".JS;.VBS" }, "C:\\npm\\deepseek.cmd"], // nothing spawnable declared: the default
    ["agent", { PATH: '"C:\\Program Files\\Agent";;' }, "C:\\Program Files\\Agent\\agent.bat"], // quoted and empty entries
    ["tool", { PATH: "D:\\x\\" }, "D:\\x\\tool.com"],
    ["deepseek.cmd", { PATH: "C:\\npm" }, "C:\\npm\\deepseek.cmd"],
    ["C:\\Tools\\deepseek", { PATH: "" }, "C:\\Tools\\deepseek.exe"],
    ["missing", { PATH: "C:\\npm;C:\\Tools" }, undefined],
    ["", { PATH: "C:\\npm" }, undefined],
  ] as const)("%p on %j -> %p", (name, env, expected) => {
    expect(whichWindows(name, env, isFile)).toBe(expected);
  });

  test("PATHEXT keeps the user's order, drops what CreateProcess cannot start, and dedupes", () => {
    expect(pathExtensions({})).toEqual([".COM", ".EXE", ".BAT", ".CMD"]);
    expect(pathExtensions({ PATHEXT: ".cmd;.exe;.CMD;.JS" })).toEqual([".CMD", ".EXE"]);
    expect(nameCandidates("x", {})).toEqual(["x.com", "x.exe", "x.bat", "x.cmd"]);
    expect(nameCandidates("x.exe", {})).toEqual(["x.exe"]);
  });

  test("findOnPath dispatches on the platform", () => {
    expect(findOnPath("definitely-not-a-command-od", { PATH: "C:\\npm" }, "win32")).toBeUndefined();
    expect(findOnPath("sh", { PATH: "/usr/bin:/bin" }, "linux")).toMatch(/\/sh$/);
  });
});
