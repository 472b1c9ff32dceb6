import { describe, expect, it } from 'vitest';
import { formatCents, formatMoney, parseMoney, sanitizeAmountInput } from './money.ts';

describe('money', () => {
  it('parses decimal strings into exact cents and back', () => {
    expect(parseMoney('12.5')).toBe(1250n);
    expect(parseMoney('-0.07')).toBe(-7n);
    expect(parseMoney('9999999999999.99')).toBe(999999999999999n);
    expect(formatMoney(1250n)).toBe('12.50');
    expect(formatMoney(-7n)).toBe('-0.07');
    expect(() => parseMoney('1.005')).toThrow(RangeError);
    expect(() => parseMoney('1e3')).toThrow(RangeError);
  });

  it('formats cents held as a number exactly as the bigint path does, and refuses a fraction of a cent', () => {
    const samples = [0, -0, 1, 7, 10, 99, 100, 1250, -7, -1250, 999999999999999, -999999999999999];
    for (const cents of [...samples, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60])
      expect(formatCents(cents)).toBe(formatMoney(BigInt(cents)));
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
    expect(() => formatCents(12.5)).toThrow(RangeError);
  });

  it('keeps digits and one point in the amount input, collapsing repeated dots, two decimals', () => {
    expect(sanitizeAmountInput('12a3.4.5')).toBe('123.45');
    expect(sanitizeAmountInput('1..5')).toBe('1.5');
    expect(sanitizeAmountInput('.5')).toBe('0.5');
    expect(sanitizeAmountInput('7.129')).toBe('7.12');
    expect(sanitizeAmountInput('7.9', 0)).toBe('7');
    expect(sanitizeAmountInput('¥ 1,200.00')).toBe('1200.00');
  });
});
