/**
 * eddy's version, as package.json says it (test/version.test.ts checks they agree). A constant rather
 * than a read of package.json so every layer may use it — SQL's `version()`, the shell's banner — without
 * file access, and the esbuild bundle and the published dist/ carry it as they are.
 */
export const EDDY_VERSION = '0.1.0';
