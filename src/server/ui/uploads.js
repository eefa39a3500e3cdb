// @ts-check
// The images attached to the form go up before the run starts (as base64 JSON, POST /api/uploads);
// the run gets their paths on the server.
import { post } from "./api.js";
import { $ } from "./page.js";

/** Uploads the form's images; resolves with their paths on the server (none when none are attached). */
export async function uploadImages() {
  /** @type {string[]} */
  const paths = [];
  for (const file of $("images").files ?? []) {
    /** @type {string | undefined} */
    const data = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(",")[1]);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    paths.push((await post("/uploads", { name: file.name, data })).path);
  }
  return paths;
}
