import { describe, expect, it } from 'vitest';
import { findListedChoices, propertyDescriptionVagueness, toolDescriptionVagueness } from './description-heuristics.js';

describe('findListedChoices', () => {
  it.each([
    ['one of a, b, c', 'one of', ['a', 'b', 'c']],
    ['Must be one of the following: low, medium or high.', 'one of', ['low', 'medium', 'high']],
    ['Either "metric" or "imperial"', 'either … or', ['metric', 'imperial']],
    ['Order: asc|desc', 'a|b', ['asc', 'desc']],
    ['Allowed values: draft, published, archived', 'allowed values', ['draft', 'published', 'archived']],
    ['Valid options are daily / weekly', 'allowed values', ['daily', 'weekly']],
    ['Choose from red, green and blue', 'choose from', ['red', 'green', 'blue']],
    ["Level: 'info', 'warn' or 'error'", 'quoted list', ['info', 'warn', 'error']],
  ])('finds the choices in %j', (description, cue, choices) => {
    expect(findListedChoices(description)).toEqual({ cue, choices });
  });

  it.each([
    'The user id from the conversation context',
    'One of the orders the user mentioned',
    'Either the email or the phone number the user gave',
    'A nickname, for example "Sam", "Al" or "Jo"',
    'Free text; line breaks are allowed',
  ])('finds nothing in %j', (description) => {
    expect(findListedChoices(description)).toBeUndefined();
  });
});

describe('vagueness', () => {
  it('judges tool descriptions', () => {
    expect(toolDescriptionVagueness('Handle the request', 'handle')).toEqual({ reason: 'it is made only of generic words', kind: 'too-generic' });
    expect(toolDescriptionVagueness('Get invoices', 'get_invoices')).toEqual({ reason: 'it only repeats the tool name', kind: 'too-short' });
    expect(toolDescriptionVagueness("List a user's invoices, newest first; call it before refunding.", 'get_invoices')).toBeUndefined();
  });

  it('judges property descriptions', () => {
    expect(propertyDescriptionVagueness('Some data', 'payload')).toBe('it is made only of generic words');
    expect(propertyDescriptionVagueness('Email address', 'email_address')).toBe('it only repeats the property name');
    expect(propertyDescriptionVagueness('Where the receipt is sent', 'email_address')).toBeUndefined();
  });
});
