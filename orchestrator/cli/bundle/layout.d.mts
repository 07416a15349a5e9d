/** Types of layout.mjs (plain JavaScript, loaded before any TypeScript). */
export declare const REPO: string;
export declare const CACHE_DIR: string;
export declare const MANIFEST: string;
export declare const ENTRY_SOURCE: string;
export declare const BUNDLE_FILE: string;
export declare const MANIFEST_VERSION: number;
