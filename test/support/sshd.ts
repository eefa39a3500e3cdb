/**
 * A real OpenSSH server for the remote tests: Debian's sshd on a loopback port, with a throwaway
 * host key, user key, authorized_keys and known_hosts in a temporary folder, and an `ssh` on PATH
 * that is the real OpenSSH client reading that folder's config (`-F`): od's own argv is unchanged.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SSHD = process.env.OD_SSHD ?? "/usr/sbin/sshd";
export const sshdMissing =
  existsSync(SSHD) && existsSync("/usr/bin/ssh") ? undefined : `no OpenSSH server at ${SSHD} (apt-get install openssh-server)`;

export interface Sshd {
  port: number;
  /** The target od is given: ssh://odtest (the host alias of the client config). */
  target: string;
  /** A bin folder to put first on PATH: its `ssh` is the real client with the test's config. */
  bin: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = server;
  server.stop(true);
  return port;
}

function keygen(path: string): void {
  const out = Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], { stderr: "pipe" });
  if (out.exitCode !== 0) throw new Error(`ssh-keygen failed: ${out.stderr}`);
}

/** sshd's `SetEnv` line: each `NAME=VALUE` double-quoted (a value may hold spaces, never a quote or a line break). */
function setEnv(env: Record<string, string>): string {
  const pairs = Object.entries(env).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) || /["\n\\]/.test(v)) throw new Error(`sshd cannot SetEnv ${k}=${JSON.stringify(v)}`);
    return `"${k}=${v}"`;
  });
  return `SetEnv ${pairs.join(" ")}`;
}

/**
 * Starts sshd in `dir`; the remote side's PATH is `remotePath` (where the fake or real agent lives),
 * and `remoteEnv` is set in every session too (HOME for a CLI's config folder, its keys): sshd's
 * own variables are overridden, the client's are never sent.
 */
export async function startSshd(dir: string, remotePath: string, remoteEnv: Record<string, string> = {}): Promise<Sshd> {
  const ssh = join(dir, "ssh-test");
  mkdirSync(ssh, { recursive: true, mode: 0o700 });
  keygen(join(ssh, "host_key"));
  keygen(join(ssh, "id"));
  writeFileSync(join(ssh, "authorized_keys"), await Bun.file(join(ssh, "id.pub")).text(), { mode: 0o600 });
  const port = await freePort();
  const hostKey = (await Bun.file(join(ssh, "host_key.pub")).text()).trim().split(" ").slice(0, 2).join(" ");
  writeFileSync(join(ssh, "known_hosts"), `[127.0.0.1]:${port} ${hostKey}\n`);
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${join(ssh, "host_key")}`,
    `AuthorizedKeysFile ${join(ssh, "authorized_keys")}`,
    `PidFile ${join(ssh, "sshd.pid")}`,
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "PermitRootLogin prohibit-password",
    "StrictModes no",
    "UsePAM no",
    setEnv({ ...remoteEnv, PATH: remotePath }),
  ];
  writeFileSync(join(ssh, "sshd_config"), `${config.join("\n")}\n`);
  const client = [
    "Host odtest",
    "  HostName 127.0.0.1",
    `  Port ${port}`,
    `  User ${Bun.spawnSync(["id", "-un"]).stdout.toString().trim()}`,
    `  IdentityFile ${join(ssh, "id")}`,
    "  IdentitiesOnly yes",
    `  UserKnownHostsFile ${join(ssh, "known_hosts")}`,
    "  StrictHostKeyChecking yes",
  ];
  writeFileSync(join(ssh, "client_config"), `${client.join("\n")}\n`);
  const bin = join(ssh, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "ssh"), `#!/bin/sh\nexec /usr/bin/ssh -F '${join(ssh, "client_config")}' "$@"\n`);
  chmodSync(join(bin, "ssh"), 0o755);
  // Debian's sshd wants its privilege separation folder (systemd makes it at boot; a container has none).
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const proc = Bun.spawn([SSHD, "-D", "-e", "-f", join(ssh, "sshd_config")], { stdout: "ignore", stderr: "pipe" });
  // Ready once a connection is accepted.
  for (let i = 0; i < 100; i++) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (ok) break;
    if (proc.exitCode !== null) throw new Error(`sshd did not start: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
  }
  return {
    port,
    target: "ssh://odtest",
    bin,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
