/**
 * Setup file of the `openai-7` test project (vitest.config.ts): the provider suites
 * run again with the OpenAI models loading `openai` 7 (installed as `openai-v7`), so
 * every request body, response mapping and stream they check holds for both majors.
 */
import type * as OpenAISdk from 'openai';
import { setOpenAISdkImportForTests } from '../../src/models/openai/load-openai-client.js';

// The two majors' classes differ in private members, so TypeScript calls them unrelated
// types; the constructor and error classes toolwright uses are the same in both.
setOpenAISdkImportForTests(() => import('openai-v7') as unknown as Promise<typeof OpenAISdk>);
