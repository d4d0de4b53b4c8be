/**
 * The worker thread of `bench:coverage`: builds the vocabulary once, then checks one schema
 * per message. The main thread times it out and replaces it when a schema runs too long.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkSchema, type SchemaJob } from './check-schema.js';
import { loadVocabulary } from './load-vocabulary.js';

// a validator that rejects a Promise nobody awaits (Ajv's "$async" schemas) must not end the run
process.on('unhandledRejection', () => undefined);
const vocabulary = loadVocabulary((workerData as { vocab: string }).vocab);
parentPort!.on('message', (job: SchemaJob) => {
  let result;
  try {
    result = checkSchema(job, vocabulary);
  } catch (error) {
    result = {
      name: job.name,
      outcome: 'error',
      reason: `checking threw: ${String((error as Error)?.message ?? error)
        .split('\n')[0]!
        .slice(0, 120)}`,
    };
  }
  parentPort!.postMessage(result);
});
parentPort!.postMessage({ ready: true });
