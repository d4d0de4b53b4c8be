import { describe, expect, it } from 'vitest';
import { parseHostPort } from './serve.js';

describe('serve --http parsing', () => {
  it('accepts host:port, IPv6 in brackets, :port and a bare port', () => {
    expect(parseHostPort('127.0.0.1:3000')).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(parseHostPort('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHostPort('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseHostPort(':4000')).toEqual({ host: '127.0.0.1', port: 4000 });
    expect(parseHostPort('5000')).toEqual({ host: '127.0.0.1', port: 5000 });
  });

  it('refuses anything else', () => {
    for (const value of ['nope', '127.0.0.1', 'host:99999', 'a:b:1']) expect(() => parseHostPort(value)).toThrow('expected host:port, such as 127.0.0.1:3000 (or a bare port).');
  });
});
