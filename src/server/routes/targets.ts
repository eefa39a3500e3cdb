import { Hono } from "hono";
import type { Targets } from "../targets.ts";

/**
 * `GET /targets`: the named targets from OD_HOME/targets.json a client may send as a run's `"target"`
 * (`POST /runs`, `/chat`), each with its limit and how many of its slots are taken and waited for
 * now. Only names travel from a client: the URLs are the server's user's to choose, in that file.
 */
export function targetRoutes(targets?: Targets) {
  return new Hono().get("/targets", (c) => c.json({ targets: targets?.list() ?? [] }));
}
