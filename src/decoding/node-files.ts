/**
 * The decoding functions that read files (`Vocabulary.fromTokenizerJson(path)`, `Vocabulary.fromGguf`, `readGgufMetadata`,
 * `loadVocabulary`) reach Node's built-ins through here when they run, so that `toolwright/decoding` bundles for a
 * browser, where the vocabulary comes from a tokenizer.json the page fetched.
 * @module
 */
import { nodeBuiltin, type NodeBuiltins } from '../shared/node-builtin.js';
import { VocabularyError } from './decoding-errors.js';

/** Node's built-in module `id` for `task`; where the runtime has none, a `VocabularyError` that says what to pass instead. */
export function nodeModuleFor<Id extends keyof NodeBuiltins>(id: Id, task: string): NodeBuiltins[Id] {
  const module = nodeBuiltin(id);
  if (module === undefined)
    throw new VocabularyError(
      `${task} reads files, and this runtime has no ${id} (Node, Bun and Deno have). In a browser or a Worker, fetch the tokenizer.json and pass its text or parsed object to Vocabulary.fromTokenizerJson.`,
    );
  return module;
}
