/**
 * The loss functions of Flink ML's SGD models and its regularization step.
 *
 * Decision: one function per loss returning the gradient multiplier and
 * adding the loss, so the SGD loop computes `dot` once per row and scales
 * the features itself (gradient = multiplier · x). The formulas are Flink
 * ML's: LeastSquareLoss (linear regression), BinaryLogisticLoss (labels
 * 0/1 scaled to ±1), HingeLoss (linear SVC); RegularizationUtils for
 * L2 (elastic_net 0), L1 (elastic_net 1) and the elastic net between.
 */

/** Loss of one row and d(loss)/d(dot), both times the row's weight. */
export interface LossFunction {
  readonly name: string;
  /** Labels must be 0 or 1. */
  readonly binary: boolean;
  /** Adds this row's loss to `acc[0]`; returns the gradient multiplier. */
  step(dot: number, label: number, weight: number, acc: Float64Array): number;
}

export const leastSquares: LossFunction = {
  name: 'least squares',
  binary: false,
  step(dot, label, weight, acc) {
    const diff = dot - label;
    acc[0] += 0.5 * diff * diff * weight;
    return diff * weight;
  },
};

export const binaryLogistic: LossFunction = {
  name: 'binary logistic',
  binary: true,
  step(dot, label, weight, acc) {
    const ys = 2 * label - 1;
    acc[0] += weight * Math.log1p(Math.exp(-dot * ys));
    return weight * (-ys / (Math.exp(dot * ys) + 1));
  },
};

export const hinge: LossFunction = {
  name: 'hinge',
  binary: true,
  step(dot, label, weight, acc) {
    const ys = 2 * label - 1;
    const t = 1 - ys * dot;
    if (t <= 0) return 0;
    acc[0] += weight * t;
    return -ys * weight;
  },
};

/** Flink ML's RegularizationUtils.regularize: shrinks `coef` in place after a gradient step; returns the regularization loss. */
export function regularize(coef: Float64Array, reg: number, elasticNet: number, learningRate: number): number {
  if (reg === 0) return 0;
  if (elasticNet === 0) {
    let sq = 0;
    for (let i = 0; i < coef.length; i++) sq += coef[i]! * coef[i]!;
    const scale = 1 - learningRate * reg;
    for (let i = 0; i < coef.length; i++) coef[i] *= scale;
    return (reg / 2) * sq;
  }
  const shrink = learningRate * elasticNet * reg;
  let loss = 0;
  for (let i = 0; i < coef.length; i++) {
    const c = coef[i]!;
    coef[i] = c > shrink ? c - shrink : c < -shrink ? c + shrink : 0;
    loss += elasticNet === 1 ? Math.abs(coef[i]!) : elasticNet * Math.abs(coef[i]!) + ((1 - elasticNet) / 2) * coef[i]! * coef[i]!;
  }
  if (elasticNet !== 1) {
    const scale = 1 - learningRate * (1 - elasticNet) * reg;
    for (let i = 0; i < coef.length; i++) coef[i] *= scale;
  }
  return loss * reg;
}
