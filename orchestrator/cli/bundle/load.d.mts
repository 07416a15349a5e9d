/** Types of load.mjs (plain JavaScript, so bin.mjs can load it before any TypeScript). */
export declare function codeCacheFiles(bundleFile: string): { cache: string; note: string };
export declare function loadBundle(bundleFile: string, command?: string): { exports: Record<string, unknown>; cache: "used" | "refused" | "none" };
