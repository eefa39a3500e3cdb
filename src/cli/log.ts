/**
 * The one logger: always on stderr, so stdout stays clean for text and JSON lines. consola is
 * loaded on the first line logged, not at import: building it (its default instance, both stdio
 * streams, its string-width) cost every `od run`, `--dry-run` included, a Bun hello-world's start
 * in CPU, and most runs log nothing (docs/benchmarks.md, startup).
 */
import type { ConsolaInstance } from "consola";
import { colorFor, plain } from "./color.ts";

let consola: ConsolaInstance | undefined;

function logger(): ConsolaInstance {
  if (consola) return consola;
  // require, not import(): a log line is written when asked for, in order; the bundler keeps the module unevaluated until then.
  const { createConsola } = require("consola") as typeof import("consola");
  // consola colours by whether stdout is a terminal; od logs to stderr, so stderr decides.
  const err = colorFor(process.stderr) ? process.stderr : plain(process.stderr);
  consola = createConsola({ stdout: err, stderr: err });
  return consola;
}

export const log = {
  info: (message: unknown, ...args: unknown[]): void => logger().info(message, ...args),
  warn: (message: unknown, ...args: unknown[]): void => logger().warn(message, ...args),
};
