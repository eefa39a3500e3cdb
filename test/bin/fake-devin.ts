#!/usr/bin/env bun
/**
 * A fake `devin` (Devin for Terminal) for detection and failure tests. It answers what od probes,
 * from $FAKE_SCRIPT (JSON) beside fake-acp's own fields:
 *   { "version"?: "2026.5.1-1", "acp"?: bool (default true: the build has the `acp` subcommand),
 *     "loggedIn"?: bool (what `devin auth status` says) }
 * `devin --version` prints "devin <version>"; `devin acp --help` prints the subcommand's help, or,
 * on a build without it, the top-level help (which names no `acp`); `devin auth status` exits 0
 * either way, its first line "Logged in (via browser)" or "Not logged in.". Anything else is the
 * ACP server: `[flags…] acp` runs test/bin/fake-acp.ts, which plays the same script. Its pid goes
 * to $FAKE_RECORD.pids, so a test can see the process gone after a cancel.
 */
import { appendFileSync, readFileSync } from "node:fs";

const script = JSON.parse(readFileSync(process.env.FAKE_SCRIPT!, "utf8")) as { version?: string; acp?: boolean; loggedIn?: boolean };
const args = process.argv.slice(2);
const hasAcp = script.acp !== false;
const TOP_HELP = `Devin for Terminal

Usage: devin [OPTIONS] [prompt]

Commands:
  auth    Authentication commands
  mcp     Manage MCP servers
  update  Update Devin for Terminal

Options:
      --model <MODEL>            Set the AI model for this session
      --permission-mode <MODE>   Permission mode (normal, dangerous, bypass)
      --respect-workspace-trust  Whether to respect workspace trust settings
  -h, --help                     Print help
`;
const ACP_HELP = `Start Devin as an Agent Client Protocol server over stdio

Usage: devin acp [OPTIONS]

Options:
      --model <MODEL>  Default model for new sessions
  -h, --help           Print help
`;

if (args[0] === "--version") {
  console.log(`devin ${script.version ?? "2026.5.1-1"}`);
  process.exit(0);
}
if (args[0] === "auth" && args[1] === "status") {
  console.log(script.loggedIn === false ? "Not logged in." : "Logged in (via browser)");
  process.exit(0);
}
if (args.includes("--help")) {
  process.stdout.write(args[0] === "acp" && hasAcp ? ACP_HELP : TOP_HELP);
  process.exit(0);
}
if (!args.includes("acp") || !hasAcp) {
  console.error("error: a prompt needs a terminal; run `devin -p` for a single turn");
  process.exit(2);
}
if (process.env.FAKE_RECORD) appendFileSync(`${process.env.FAKE_RECORD}.pids`, `${process.pid}\n`);
await import("./fake-acp.ts");
