/**
 * The bytes that structure JSON text and write its numbers (the same values as char codes, so a scan of a string reads
 * them too): one place for the token mask's automaton and memory, the local models' closing preference and the depth
 * check.
 * @module
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const MINUS_SIGN = 0x2d;
export const PLUS_SIGN = 0x2b;
export const POINT = 0x2e;
export const DIGIT_ZERO = 0x30;
export const DIGIT_NINE = 0x39;
