/**
 * The page script of the browser mask test, bundled with `toolwright/decoding` by esbuild for `platform: 'browser'`:
 * it fetches the Qwen3 tokenizer.json and the cases from the test's server, builds the vocabulary from the fetched
 * text, walks every case, and tries the functions that read files, which must refuse with a `VocabularyError`.
 */
import { Vocabulary, loadVocabulary, readGgufMetadata } from '../../src/decoding/index.js';
import { walkMaskCases, type CaseRecord, type MaskCases } from './mask-walk.js';

export interface PageResult {
  readonly vocabularySize: number;
  readonly eosTokenIds: readonly number[];
  readonly records: readonly CaseRecord[];
  /** `code: message` of what each file-reading function threw, in order. */
  readonly refusals: readonly string[];
}

async function runMaskInPage(): Promise<PageResult> {
  const [tokenizerText, input] = await Promise.all([
    fetch('/tokenizer.json').then((response) => response.text()),
    fetch('/cases.json').then((response) => response.json() as Promise<MaskCases>),
  ]);
  const vocabulary = Vocabulary.fromTokenizerJson(tokenizerText).buildIndex();
  const records = walkMaskCases(vocabulary, input);
  const refusals = [
    () => loadVocabulary('/models/qwen3/tokenizer.json'),
    () => Vocabulary.fromTokenizerJson('/models/qwen3/tokenizer.json'),
    () => Vocabulary.fromGguf('/models/qwen3.gguf'),
    () => readGgufMetadata('/models/qwen3.gguf'),
  ].map((read) => {
    try {
      read();
      return 'no error';
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      return `${String(code)}: ${message}`;
    }
  });
  return { vocabularySize: vocabulary.size, eosTokenIds: vocabulary.eosTokenIds, records, refusals };
}

(globalThis as { runMaskInPage?: typeof runMaskInPage }).runMaskInPage = runMaskInPage;
