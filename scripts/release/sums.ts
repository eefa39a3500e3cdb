/** SHA256SUMS in sha256sum's own format (`<hex>  <path>`, paths relative to the release folder). */
import { readFileSync } from "node:fs";
import { relative } from "node:path";

export function sha256(file: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex");
}

export function sha256sums(dir: string, files: string[]): string {
  return files.map((f) => `${sha256(f)}  ${relative(dir, f).replaceAll("\\", "/")}\n`).join("");
}
