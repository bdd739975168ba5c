/** File names of a suite run (shared by the writer and the Markdown's image links). */

/** The base name of a run's files: suite-sf<sf>. */
export const baseNameOf = (sf: number): string => `suite-sf${sf}`;
