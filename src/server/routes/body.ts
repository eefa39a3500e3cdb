/**
 * What the routes that start runs (`POST /runs`, `POST /compare`) check the same way: a body that
 * is JSON, and a working directory that exists on this machine.
 */
import { statSync } from "node:fs";
import { OdError } from "../../core/contract/errors.ts";

/** The request's body as JSON; INVALID_REQUEST when it is not JSON. */
export async function jsonBody(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new OdError("INVALID_REQUEST", "The body is not valid JSON");
  }
}

/** Throws INVALID_REQUEST unless `cwd` is an existing directory. */
export function mustBeDirectory(cwd: string): void {
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {}
  if (!isDir) throw new OdError("INVALID_REQUEST", `cwd is not an existing directory: ${cwd}`);
}
