import { createConsola } from "consola";

/** The one logger: always on stderr, so stdout stays clean for text and JSON lines. */
export const log = createConsola({ stdout: process.stderr, stderr: process.stderr });
