/**
 * A throwaway npm registry on loopback for the pkg lane: Verdaccio (installed outside the
 * repository by test/pkg/lane.sh, `$OD_VERDACCIO`), with no uplinks, so it serves only what the
 * test publishes to it. One user, whose token goes in a private npmrc every npm call uses.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const VERDACCIO = process.env.OD_VERDACCIO || join(homedir(), ".cache/od-verdaccio/node_modules/verdaccio/bin/verdaccio");

export interface Registry {
  url: string;
  /** An npmrc pointing npm at the registry, with the publishing token. */
  npmrc: string;
  stop: () => Promise<void>;
}

const config = (dir: string, port: number) => `storage: ${join(dir, "storage")}
auth:
  htpasswd:
    file: ${join(dir, "htpasswd")}
uplinks: {}
packages:
  "**":
    access: $all
    publish: $authenticated
max_body_size: 500mb
# npm takes a while to build a 75 MB publish body after its first GETs: a socket the server had
# dropped (Node's default keep-alive is 5 s) made each first PUT fail with EPIPE, and npm retry 10 s later.
server:
  keepAliveTimeout: 600
listen: 127.0.0.1:${port}
log: { type: stdout, format: pretty, level: warn }
`;

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export async function startRegistry(dir: string): Promise<Registry> {
  if (!existsSync(VERDACCIO)) throw new Error(`no Verdaccio at ${VERDACCIO}: run test/pkg/lane.sh (npm run test:pkg)`);
  mkdirSync(dir, { recursive: true });
  const port = freePort();
  writeFileSync(join(dir, "config.yaml"), config(dir, port));
  const proc = Bun.spawn(["node", VERDACCIO, "--config", join(dir, "config.yaml")], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/-/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300 || proc.exitCode !== null) {
      proc.kill();
      throw new Error(`Verdaccio did not start: ${await new Response(proc.stderr).text()}`);
    }
    await Bun.sleep(100);
  }
  const user = await fetch(`${url}/-/user/org.couchdb.user:od`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "od", password: "od-pkg-lane" }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (!token) throw new Error(`Verdaccio gave no token (${user.status})`);
  const npmrc = join(dir, "npmrc");
  writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\nupdate-notifier=false\naudit=false\nfund=false\n`);
  return {
    url,
    npmrc,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}
