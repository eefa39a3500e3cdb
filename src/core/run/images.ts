import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { OdError } from "../contract/errors.ts";
import type { ImageInput } from "../contract/request.ts";

export const IMAGE_LIMITS = { count: 10, bytes: 5 * 1024 * 1024 };
const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/**
 * Images for a run: readable regular files of a known image type, within the
 * count and size limits; anything else is refused before the agent starts.
 */
export function loadImages(paths: string[], cwd: string): ImageInput[] {
  if (paths.length > IMAGE_LIMITS.count)
    throw new OdError("INVALID_REQUEST", `Too many images: ${paths.length} (at most ${IMAGE_LIMITS.count})`);
  return paths.map((given) => {
    const path = resolve(cwd, given);
    const mimeType = TYPES[extname(path).toLowerCase()];
    if (!mimeType) throw new OdError("INVALID_REQUEST", `${given}: not a supported image (${Object.keys(TYPES).join(", ")})`);
    let size: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) throw new Error("not a regular file");
      accessSync(path, constants.R_OK);
      size = st.size;
    } catch (err) {
      throw new OdError(
        "INVALID_REQUEST",
        `${given}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message}`,
      );
    }
    if (size > IMAGE_LIMITS.bytes)
      throw new OdError("INVALID_REQUEST", `${given}: ${size} bytes, over the ${IMAGE_LIMITS.bytes}-byte limit`);
    return { path, mimeType, data: readFileSync(path).toString("base64") };
  });
}
