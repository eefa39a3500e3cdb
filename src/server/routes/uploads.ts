import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { OdError } from "../../core/contract/errors.ts";
import { z } from "../../core/contract/zod.ts";
import { odHome } from "../../core/os/paths.ts";
import { IMAGE_LIMITS, loadImages } from "../../core/run/images.ts";

const Upload = z.object({ name: z.string().min(1).max(200), data: z.string().min(1) });

/**
 * Images from the browser: the UI posts them as base64 JSON (the CSRF rule wants
 * JSON bodies), they are stored under ~/.open-design/uploads (0600) and checked
 * like any --image, and the run gets their paths.
 */
export function uploadRoutes(env?: Record<string, string | undefined>) {
  return new Hono().post(
    "/uploads",
    bodyLimit({
      maxSize: Math.ceil((IMAGE_LIMITS.bytes * 4) / 3) + 4096,
      onError: () => {
        throw new OdError("INVALID_REQUEST", `An image may be at most ${IMAGE_LIMITS.bytes} bytes`);
      },
    }),
    async (c) => {
      const parsed = Upload.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) throw new OdError("INVALID_REQUEST", 'Send {"name": "<file name>", "data": "<base64>"}');
      const dir = join(odHome(env), "uploads");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, `${crypto.randomUUID()}${extname(parsed.data.name).toLowerCase()}`);
      writeFileSync(path, Buffer.from(parsed.data.data, "base64"), { mode: 0o600 });
      try {
        loadImages([path], dir); // the same checks as --image: type and size
      } catch (err) {
        rmSync(path, { force: true });
        throw err;
      }
      return c.json({ path }, 201);
    },
  );
}
