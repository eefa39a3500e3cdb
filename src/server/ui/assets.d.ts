// The UI's static files are imported as text (`with { type: "text" }`) and embedded in the binary.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*/ui/app.js" {
  const text: string;
  export default text;
}
