import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

describe('closestName', () => {
  const names = ['get_invoices', 'get_profile', 'search_products', 'update_subscription'];
  it('finds a typo', () => expect(closestName('get_invoice', names)).toBe('get_invoices'));
  it('is case-insensitive', () => expect(closestName('Get_Profile', names)).toBe('get_profile'));
  it('finds a name the model shortened', () => expect(closestName('update_subscription_plan', names)).toBe('update_subscription'));
  it('suggests nothing for an unrelated name', () => expect(closestName('send_email', names)).toBeUndefined());
});
