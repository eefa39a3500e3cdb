// Bun comes from npm. Its own postinstall places the native binary; when a
// strict install skipped that script, run it once here so `bun` always works.
const { execFileSync } = require("node:child_process");
const { join } = require("node:path");
const bin = join(__dirname, "..", "node_modules", ".bin", "bun");
try {
  execFileSync(bin, ["--version"], { stdio: "ignore" });
} catch {
  execFileSync(process.execPath, ["install.js"], { cwd: join(__dirname, "..", "node_modules", "bun"), stdio: "inherit" });
}
