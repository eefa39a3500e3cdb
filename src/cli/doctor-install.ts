import { compareVersions } from "../core/agents/detect.ts";
import { type OdInstall, odInstallsBeside } from "../core/agents/od-installs.ts";
import { describeInstall, type Install, installLabel, NPM_PACKAGE } from "../core/os/install.ts";
import { VERSION } from "../core/os/version.ts";

/** `od doctor`'s lines about od itself: this one's version and origin, and each newer od installed beside it. */
export function installFindings(env: Record<string, string | undefined> = process.env): {
  findings: Array<{ level: "ok" | "warn"; what: string; fix?: string }>;
  installs: { self: Install; version: string; beside: OdInstall[] };
} {
  const self = describeInstall();
  const beside = odInstallsBeside(self, env);
  const findings: Array<{ level: "ok" | "warn"; what: string; fix?: string }> = [
    { level: "ok", what: `od ${VERSION} (${installLabel(self)})` },
  ];
  for (const other of beside.filter((o) => compareVersions(o.version, VERSION) > 0))
    findings.push({
      level: "warn",
      what: `a newer od is installed beside this one: ${other.version} (${installLabel(other.install)})${other.onPath ? `, on PATH as ${other.onPath}` : ""}`,
      fix: `${other.onPath ? `run ${other.onPath}` : "run that one"}, or update this one: ${update(self)}`,
    });
  return { findings, installs: { self, version: VERSION, beside } };
}

function update(self: Install): string {
  if (self.kind === "npm") return `npm install -g ${NPM_PACKAGE}`;
  if (self.kind === "source") return `git pull && npm install in ${self.path}`;
  return `replace ${self.path}`;
}
