/** Python semantics the project must reproduce byte-for-byte (see shared spec, arena-format §8, gateway §7). */
export * from "./value.ts";
export * from "./json.ts";
export * from "./float.ts";
export * from "./repr.ts";
export * from "./numbers.ts";
export * from "./whitespace.ts";
export * from "./truthy.ts";
