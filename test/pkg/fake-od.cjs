#!/usr/bin/env node
// Stands in for od's binary behind the launcher (test/pkg/launcher.test.ts). FAKE_MODE:
// echo: prints its argv and stdin as JSON, exits FAKE_EXIT; signals: logs each SIGINT/SIGTERM to
// FAKE_LOG (SIGINT: exit 130 half a second after the first); suicide: ends itself by SIGTERM.
const fs = require("node:fs");
const mode = process.env.FAKE_MODE || "echo";
const log = (line) => fs.appendFileSync(process.env.FAKE_LOG, `${line}\n`);
if (mode === "echo") {
  const stdin = fs.readFileSync(0, "utf8");
  process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), stdin, pid: process.pid }));
  process.exit(Number(process.env.FAKE_EXIT || 0));
} else if (mode === "signals") {
  let ints = 0;
  process.on("SIGINT", () => {
    log(`SIGINT ${++ints}`);
    if (ints === 1) setTimeout(() => process.exit(130), 500);
  });
  process.on("SIGTERM", () => {
    log("SIGTERM");
    setTimeout(() => process.exit(143), 200);
  });
  log(`ready ${process.pid}`);
  setInterval(() => {}, 1000);
} else if (mode === "suicide") {
  process.kill(process.pid, "SIGTERM");
  setInterval(() => {}, 1000);
}
