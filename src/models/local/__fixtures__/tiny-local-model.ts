/** The tiny structural test model behind a LocalModel, opened the same way by the tests that decode under the token mask. */
import { LocalModel } from '../local-model.js';
import { ensureTinyModel } from '../tiny-model.js';

/** Downloads the tiny model if needed and opens it on one thread, with a small call budget; the caller closes it. */
export async function openTinyLocalModel(): Promise<LocalModel> {
  return new LocalModel(await ensureTinyModel(), { threads: 1, callTokenBudget: 16, maxCallTokens: 200 });
}
