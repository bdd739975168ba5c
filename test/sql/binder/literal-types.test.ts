/** Typing of JS literal values (Table API `lit()` and parameters): INTEGER's range includes −2^31. */
import { describe, expect, it } from 'vitest';
import { inferLiteralType } from '../../../src/sql/binder/call.js';

describe('inferLiteralType', () => {
  it('types integers in [−2^31, 2^31 − 1] INTEGER and others DOUBLE', () => {
    expect(inferLiteralType(-2147483648)).toBe('INTEGER');
    expect(inferLiteralType(2147483647)).toBe('INTEGER');
    expect(inferLiteralType(2147483648)).toBe('DOUBLE');
    expect(inferLiteralType(-2147483649)).toBe('DOUBLE');
    expect(inferLiteralType(1.5)).toBe('DOUBLE');
    expect(inferLiteralType(5n)).toBe('BIGINT');
    expect(inferLiteralType(null)).toBe('NULL');
  });
});
