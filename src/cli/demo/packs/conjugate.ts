/**
 * A tiny tool pack: English verb conjugation from a real (small) table. The verb is an
 * enum of the verbs the table covers, so under the token mask a conjugated form ("ate")
 * or an invented verb cannot even be written. A well-formed call can still ask for a form
 * English lacks (the modals have no perfect or future: "will must"), and the model gets a
 * tool error that tells it how to recover.
 * @module
 */
import { ToolError, defineTool } from '../../../tools/index.js';

export const TENSES = ['present_simple', 'past_simple', 'present_perfect', 'future_simple'] as const;
export const PERSONS = ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl'] as const;

export type Tense = (typeof TENSES)[number];
export type Person = (typeof PERSONS)[number];

interface VerbEntry {
  /** Present simple for each person. */
  present: Record<Person, string>;
  /** Past simple for each person (only "be" differs by person); none for "must". */
  past?: Record<Person, string>;
  /** Past participle; modal verbs have none, so no present perfect. */
  participle?: string;
  /** Modal verbs take no "will" (there is no future simple of "can"). */
  modal?: true;
}

function regularPresent(base: string, thirdSingular: string): Record<Person, string> {
  return { '1sg': base, '2sg': base, '3sg': thirdSingular, '1pl': base, '2pl': base, '3pl': base };
}

function samePast(form: string): Record<Person, string> {
  return { '1sg': form, '2sg': form, '3sg': form, '1pl': form, '2pl': form, '3pl': form };
}

const VERBS: ReadonlyMap<string, VerbEntry> = new Map([
  [
    'be',
    {
      present: { '1sg': 'am', '2sg': 'are', '3sg': 'is', '1pl': 'are', '2pl': 'are', '3pl': 'are' },
      past: { '1sg': 'was', '2sg': 'were', '3sg': 'was', '1pl': 'were', '2pl': 'were', '3pl': 'were' },
      participle: 'been',
    },
  ],
  ['have', { present: regularPresent('have', 'has'), past: samePast('had'), participle: 'had' }],
  ['do', { present: regularPresent('do', 'does'), past: samePast('did'), participle: 'done' }],
  ['go', { present: regularPresent('go', 'goes'), past: samePast('went'), participle: 'gone' }],
  ['eat', { present: regularPresent('eat', 'eats'), past: samePast('ate'), participle: 'eaten' }],
  ['see', { present: regularPresent('see', 'sees'), past: samePast('saw'), participle: 'seen' }],
  ['write', { present: regularPresent('write', 'writes'), past: samePast('wrote'), participle: 'written' }],
  ['make', { present: regularPresent('make', 'makes'), past: samePast('made'), participle: 'made' }],
  ['can', { present: samePast('can'), past: samePast('could'), modal: true }],
  ['must', { present: samePast('must'), modal: true }],
]);

/** What English uses where a modal verb has no form of its own, and the covered verb that conjugates it. */
const MODAL_PARAPHRASES: Record<string, { phrase: string; verb: string }> = {
  can: { phrase: 'be able to', verb: 'be' },
  must: { phrase: 'have to', verb: 'have' },
};

/** The verbs the table covers, alphabetically. */
export const SUPPORTED_VERBS: readonly string[] = Object.freeze([...VERBS.keys()].sort());

const PRONOUNS: Record<Person, string> = { '1sg': 'I', '2sg': 'you', '3sg': 'he/she/it', '1pl': 'we', '2pl': 'you', '3pl': 'they' };

export interface Conjugation {
  verb: string;
  tense: Tense;
  person: Person;
  pronoun: string;
  /** The verb phrase alone ("has eaten"). */
  form: string;
  /** Pronoun and form ("he/she/it has eaten"). */
  text: string;
}

/** Conjugates a verb from the table, or throws the tool error the model will read. */
export function conjugateVerb(verb: string, tense: Tense, person: Person): Conjugation {
  const entry = VERBS.get(verb);
  // the registry's enum check keeps unknown verbs out; a direct caller still gets the model-facing error
  if (!entry) {
    throw new ToolError(`verb '${verb}' is out of scope: this table covers only ${SUPPORTED_VERBS.join(', ')}`, {
      kind: 'out_of_scope',
      suggestion: `Call list_verbs to see what is supported, and tell the user that '${verb}' cannot be conjugated here instead of guessing its forms.`,
    });
  }
  let form: string | undefined;
  switch (tense) {
    case 'present_simple':
      form = entry.present[person];
      break;
    case 'past_simple':
      form = entry.past?.[person];
      break;
    case 'present_perfect':
      form = entry.participle === undefined ? undefined : `${person === '3sg' ? 'has' : 'have'} ${entry.participle}`;
      break;
    case 'future_simple':
      form = entry.modal ? undefined : `will ${verb}`;
      break;
  }
  if (form === undefined) {
    const tenseName = tense.replace('_', ' ');
    const paraphrase = MODAL_PARAPHRASES[verb]!;
    throw new ToolError(`verb '${verb}' is out of scope for ${tense}: English '${verb}' has no ${tenseName} form`, {
      kind: 'out_of_scope',
      suggestion: `Tell the user that '${verb}' has no ${tenseName} and that English uses '${paraphrase.phrase}' instead (call conjugate with verb '${paraphrase.verb}' for its forms); do not invent a form.`,
    });
  }
  const pronoun = PRONOUNS[person];
  return { verb, tense, person, pronoun, form, text: `${pronoun} ${form}` };
}

export const conjugate = defineTool<{ verb: string; tense: Tense; person: Person }, Conjugation>({
  name: 'conjugate',
  title: 'Conjugate an English verb',
  description:
    'Conjugate an English verb for one tense and one grammatical person, and return the verb phrase with its pronoun (for example "he/she/it has eaten"). ' +
    'Call it whenever the user asks how a verb is conjugated; do not conjugate from memory. Only the verbs in the enum (also listed by list_verbs) are supported.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      verb: {
        type: 'string',
        enum: [...SUPPORTED_VERBS],
        description: 'The verb in its base form, lowercase and without "to" (write "eat", not "to eat" or "ate"). Only these verbs are covered.',
      },
      tense: { type: 'string', enum: [...TENSES], description: 'The tense to conjugate into.' },
      person: {
        type: 'string',
        enum: [...PERSONS],
        description: 'Grammatical person and number: 1sg = I, 2sg = you, 3sg = he/she/it, 1pl = we, 2pl = you (plural), 3pl = they.',
      },
    },
    required: ['verb', 'tense', 'person'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      verb: { type: 'string' },
      tense: { type: 'string', enum: [...TENSES] },
      person: { type: 'string', enum: [...PERSONS] },
      pronoun: { type: 'string' },
      form: { type: 'string' },
      text: { type: 'string' },
    },
    required: ['verb', 'tense', 'person', 'pronoun', 'form', 'text'],
    additionalProperties: false,
  },
  hints: { openWorld: false },
  execute: ({ verb, tense, person }) => conjugateVerb(verb, tense, person),
});

export const listVerbs = defineTool<Record<string, never>, { verbs: string[]; tenses: string[]; persons: string[] }>({
  name: 'list_verbs',
  title: 'List the verbs conjugate supports',
  description:
    'List the verbs, tenses and persons that the conjugate tool supports. Call it when unsure whether a verb is covered, or after conjugate reports a verb out of scope.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  hints: { openWorld: false },
  execute: () => ({ verbs: [...SUPPORTED_VERBS], tenses: [...TENSES], persons: [...PERSONS] }),
});

export const tools = [conjugate, listVerbs];
