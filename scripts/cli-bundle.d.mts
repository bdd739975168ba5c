// Types of scripts/cli-bundle.mjs (plain JavaScript so it runs without tsx), for the tests.

/** The checkout the script belongs to. */
export declare const ROOT: string;
/** Where the bundle of the checkout at `root` lives; `main.js` is the shell's entry. */
export declare function bundleDir(root?: string): string;
/** A hash of every path, size and modification time under src/ and of the build configuration, and the entry count. */
export declare function sourceSignature(root?: string): { hash: string; entries: number };
/** Whether the bundle exists and was built from the sources as they are now. */
export declare function bundleIsFresh(root?: string): boolean;
/** Bundles the sources now; resolves to the path of main.js. */
export declare function buildCliBundle(root?: string): Promise<string>;
/** The path of an up-to-date bundle, building it first if the sources changed. */
export declare function ensureCliBundle(root?: string): Promise<string>;
