/** Options of `local:<path.gguf>` models. Kept apart from the engine so that naming them loads nothing heavy. */
export interface LocalModelOptions {
  /** CPU threads for llama.cpp. Default: cores − 1, at least 1 (node-llama-cpp's default oversubscribes small machines badly). */
  threads?: number;
  /** Context window in tokens. Default 4096. */
  contextSize?: number;
  /** Decode tool calls under the token mask. Default true; `false` samples them freely (for comparisons). */
  constrained?: boolean;
  /** Feed text the grammar fixes without sampling it. Default true. */
  jumpForward?: boolean;
  /**
   * Order of a call's declared properties under the mask. `schema` (default): the schema's
   * order, so jump-forward writes each next required key without sampling. `any`: the model
   * picks the order (each property once, required ones still enforced); it costs jump-forward
   * those keys and about 2× the automaton states. Both give only schema-valid arguments.
   */
  propertyOrder?: 'schema' | 'any';
  /**
   * Work units of the mask's look-ahead per sampled token, run while llama.cpp computes the
   * next token (`GrammarMatcher.lookAhead`, in chunks that return to the event loop): the
   * masks the arguments can reach next are then copies instead of trie walks. A count, not
   * a deadline; it stops early when the token arrives. Default 200,000; 0 turns it off.
   */
  lookAheadPerToken?: number;
  /** Default sampling temperature when the request gives none. Default 0.7. */
  temperature?: number;
  /** Top-k; keep it above 0 (0 sorts the whole vocabulary every step). Default 40. */
  topK?: number;
  topP?: number;
  /** Default seed when the request gives none. */
  seed?: number;
  /** Default cap on generated tokens per response. Default 512. */
  maxOutputTokens?: number;
  /** Tokens a call's arguments may take before the mask steers them to their nearest valid end (close the string, the object…). Default 256. */
  callTokenBudget?: number;
  /** Hard cap on tokens inside one call's arguments; past it the call is cut (and fails validation). Default 2048. */
  maxCallTokens?: number;
}

/** Counters for benchmarks and the demo. */
export interface LocalModelStats {
  sampledTokens: number;
  /** Tokens fed without sampling: the call framing and jump-forward text. */
  forcedTokens: number;
  /** Of the forced tokens, those jump-forward saved inside arguments. */
  jumpForwardTokens: number;
  maskedSteps: number;
  /** Milliseconds spent computing masks and biases. */
  maskMs: number;
}
