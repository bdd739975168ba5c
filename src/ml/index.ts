/** The ML layer (docs/ml.md): iterative training and scoring as table functions on the iteration core. */
export { isMlFunction, mlNode, PREDICT_FUNCTIONS, TRAINING_FUNCTIONS } from './functions.js';
export { apiParams, PREDICT_PARAMS, TRAINING_PARAMS, type ParamValue } from './params.js';
export { onTrainingRound, trainingsStarted, type TrainingRound } from './stats.js';
export { kmeansStream, assignBatch, seededRandom, type DataMode } from './kmeans.js';
