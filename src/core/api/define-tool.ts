import type { Mode, ToolKind } from "../contract/events.ts";
import { z } from "../contract/zod.ts";
import type { ToolSpec } from "./types.ts";

/** Where a tool call runs: the project root (a realpath) and the run's mode. */
export interface ToolScope {
  root: string;
  mode: Mode;
}

/**
 * One tool of the loop, declared once: the zod schema both checks the model's
 * input and, converted, is the JSON Schema the model is shown, so the two cannot drift.
 */
export interface Tool<I extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: I;
  /** It changes files: read-only mode does not offer it. */
  writes: boolean;
  /** What a call of it does, as its tool.call says (the file it acts on is its input's `path`). */
  kind: ToolKind;
  /**
   * The result text for the model. A refusal or failure is thrown (a ToolError
   * for a refusal) and reported to the model as an error result by the caller.
   * A method, so a tool with a narrow input still fits in a list of tools.
   */
  run(input: z.output<I>, scope: ToolScope): string;
}

/** Typed identity: `run` gets the parsed type of `input`. */
export function defineTool<I extends z.ZodType>(tool: Tool<I>): Tool<I> {
  return tool;
}

/**
 * What the model sees of a tool. The input side of the schema is shown (what
 * the model may send), without `$schema`: the hand-written schemas the clients
 * sent before had none, and Anthropic's input_schema and OpenAI's parameters
 * want a bare object schema.
 */
export function toolSpec(tool: Tool): ToolSpec {
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { io: "input" });
  return { name: tool.name, description: tool.description, schema };
}
