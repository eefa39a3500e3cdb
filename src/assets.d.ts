// Files embedded in the binary by import attributes: `with { type: "text" }` gives their text,
// `with { type: "file" }` a path Bun.file can read. Either way the value is a string.
declare module "*.md" {
  const value: string;
  export default value;
}
declare module "*.css" {
  const value: string;
  export default value;
}
declare module "*/ui/app.js" {
  const value: string;
  export default value;
}
