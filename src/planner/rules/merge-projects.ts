/**
 * merge-projects: Project(Project(x)) → one Project over x, inlining the inner expressions (only
 * deterministic ones, and a computed one only when read at most once); removes identity Projects.
 * Runs after push-down-filter (which moves Filters out from between Projects) and before
 * prune-columns; it also removes the identity Projects pruning and empty elimination leave behind.
 */
import { project, transformUp, type Project } from '../../relnode/rel.js';
import { rexVisit } from '../../relnode/rex.js';
import { isDeterministicRex, substituteRefs, type Rule } from '../rule.js';

/** Merges stacked Projects and drops Projects that only pass their input through. */
export const mergeProjects: Rule = {
  name: 'merge-projects',
  description: 'Merges Project(Project(x)) when the inner expressions are deterministic and removes identity Projects; after push-down-filter, before prune-columns.',
  rewrite(root) {
    return transformUp(root, (n) => {
      if (n.kind !== 'Project') return n;
      const p = n.input.kind === 'Project' ? (mergeInto(n, n.input) ?? n) : n;
      return isIdentity(p) ? p.input : p;
    });
  },
};

/**
 * The outer Project rewritten over the inner one's input, or undefined when that would
 * evaluate a non-deterministic inner expression differently or a computed one repeatedly.
 */
function mergeInto(outer: Project, inner: Project): Project | undefined {
  const uses = new Map<number, number>();
  for (const e of outer.exprs) rexVisit(e, (x) => { if (x.kind === 'InputRef') uses.set(x.index, (uses.get(x.index) ?? 0) + 1); });
  for (const [i, count] of uses) {
    const e = inner.exprs[i]!;
    if (!isDeterministicRex(e)) return undefined;
    if (count > 1 && e.kind !== 'InputRef' && e.kind !== 'Literal') return undefined;
  }
  return project(inner.input, outer.exprs.map((e) => substituteRefs(e, inner.exprs)), outer.schema.fields.map((f) => f.name));
}

/** Every column of the input, in order, under the input's own names. */
function isIdentity(p: Project): boolean {
  const inF = p.input.schema.fields;
  return p.exprs.length === inF.length && p.exprs.every((e, i) => e.kind === 'InputRef' && e.index === i && p.schema.fields[i]!.name === inF[i]!.name);
}

