// Types of the part of server-build.mjs that TypeScript code (the tests) uses.
/** Whether `output` is missing or older than any of `sources` (files or folders). */
export declare function outdated(output: string, sources: string[]): boolean;
export declare const WEB_ENTRY: string;
export declare const WEB_SOURCES: string[];
