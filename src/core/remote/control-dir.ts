import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where OpenSSH keeps od's multiplexing sockets: a private folder of this user's in the temp
 * directory (a socket path must stay under ~100 bytes, which an OD_HOME path can exceed). A folder
 * there that is not this user's own, mode 0700, is refused: another user could listen on it.
 */
export function controlDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `od-ssh-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0)
    throw new Error(`${dir} is not a private folder of this user's; remove it and try again`);
  return dir;
}
