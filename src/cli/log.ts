import { createConsola } from "consola";
import { colorFor, plain } from "./color.ts";

// consola colours by whether stdout is a terminal; od logs to stderr, so stderr decides.
const err = colorFor(process.stderr) ? process.stderr : plain(process.stderr);

/** The one logger: always on stderr, so stdout stays clean for text and JSON lines. */
export const log = createConsola({ stdout: err, stderr: err });
