// Joins a tool execution whose recorded arguments are a bare value back to the model's call with
// the same call id. OpenInference collapses a one-argument tool's input to that argument's value
// (`formatIO`: {"machine_id":"x"} is recorded as "x"), so the write-seam checks could only name
// `args`; when the model's call had exactly one key and its value is that bare value, the
// execution read the call's object. Pure. Must never change arguments that are not a bare value,
// never join by name alone (a call id is required), and never join a value that differs.

import type { ToolExecution } from '../model/agent.js';

/** A model call's only argument, when its arguments were an object of exactly one primitive-valued key. */
export interface SoleArgument {
  key: string;
  value: string | number | boolean;
}

export function soleArgumentOf(call: { arguments?: unknown }): SoleArgument | undefined {
  const a = call.arguments;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return undefined;
  const keys = Object.keys(a);
  if (keys.length !== 1) return undefined;
  const value = (a as Record<string, unknown>)[keys[0]!];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { key: keys[0]!, value } : undefined;
}

/** The execution with the call's one-key object as its arguments, when its bare value is that key's value. */
export function withSoleArgument(ex: ToolExecution, chosen: { toolName: string; soleArgument?: SoleArgument } | undefined): ToolExecution {
  const sole = chosen?.soleArgument;
  const bare = ex.arguments;
  if (!sole || chosen.toolName !== ex.toolName || (typeof bare !== 'string' && typeof bare !== 'number' && typeof bare !== 'boolean')) return ex;
  // A number or boolean argument reads back as its text when the instrumentation recorded a string.
  const same = bare === sole.value || (typeof bare === 'string' && typeof sole.value !== 'string' && String(sole.value) === bare);
  return same ? { ...ex, arguments: { [sole.key]: sole.value } } : ex;
}
