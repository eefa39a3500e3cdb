/**
 * `od serve` over the fake agents in a process of its own, so a test can kill it outright (SIGKILL:
 * no shutdown, no run.finished) and start another server on the same port and OD_HOME. Prints one
 * JSON line, `{url, token}`, once it listens. Port from OD_TEST_PORT, a fixed token from OD_TEST_TOKEN (else a fresh one); the rest of the env is the run's.
 * What it tells its pages (how often to check on it, when to call it gone) from OD_TEST_PAGE, as JSON.
 */
import { startServer } from "../../src/server/serve.ts";
import { registry } from "../server/support.ts";

const server = startServer({
  host: "127.0.0.1",
  port: Number(process.env.OD_TEST_PORT),
  maxRuns: 4,
  registry,
  env: process.env,
  token: process.env.OD_TEST_TOKEN || undefined,
  page: JSON.parse(process.env.OD_TEST_PAGE || "{}"),
});
console.log(JSON.stringify({ url: server.url, token: server.token }));
