/**
 * `npm test` runs a fast slice of the heaviest suites (the project keeps it
 * under ~5 minutes on 2 cores); `npm run test:heavy` sets EDDY_HEAVY=1 and
 * runs them whole (more random queries, every cache mode over every suite,
 * the larger vendored sqllogictest files).
 */
export const HEAVY = process.env['EDDY_HEAVY'] === '1';
