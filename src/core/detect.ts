import type { Adapter } from "./adapter.ts";
import { OdError } from "./errors.ts";
import { resolveExecutable } from "./resolve.ts";

type Env = Record<string, string | undefined>;

export interface Detection {
  id: string;
  name: string;
  installed: boolean;
  path?: string;
  version?: string;
  /** Why it is not usable, with what to do. */
  problem?: { code: string; message: string; hint?: string };
}

/** `<bin> --version`, time-bounded; stdout and stderr both count (pi prints its version on stderr). */
export async function probeVersion(adapter: Adapter, bin: string, timeoutMs = 3000, env: Env = process.env): Promise<string | undefined> {
  try {
    const proc = Bun.spawn([bin, ...adapter.version.args], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env, timeout: timeoutMs, killSignal: "SIGKILL" });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (proc.exitCode !== 0) return undefined;
    const text = `${out}\n${err}`.trim();
    return adapter.version.parse ? adapter.version.parse(text) : (text.match(/\d+\.\d+(\.\d+)?[\w.-]*/)?.[0] ?? text.split("\n")[0]);
  } catch {
    return undefined;
  }
}

/** Whether each adapter's executable is installed, and its version; all probed in parallel. */
export async function detectAll(adapters: Adapter[], env: Env = process.env): Promise<Detection[]> {
  return Promise.all(
    adapters.map(async (adapter): Promise<Detection> => {
      const base = { id: adapter.id, name: adapter.name };
      let path: string;
      try {
        path = resolveExecutable(adapter, env).path;
      } catch (err) {
        const e = OdError.from(err);
        return { ...base, installed: false, problem: { code: e.code, message: e.message, hint: e.hint } };
      }
      const version = await probeVersion(adapter, path, 3000, env);
      if (version === undefined)
        return { ...base, installed: false, path, problem: { code: "AGENT_NOT_FOUND", message: `\`${path} ${adapter.version.args.join(" ")}\` failed`, hint: `Reinstall with \`${adapter.install}\`.` } };
      return { ...base, installed: true, path, version };
    }),
  );
}
