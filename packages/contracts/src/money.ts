/** Money travels as a decimal string with two places and is stored as integer cents (bigint). */
const MONEY_PATTERN = /^-?\d{1,13}(\.\d{1,2})?$/;

export function isMoneyString(value: string): boolean {
  return MONEY_PATTERN.test(value);
}

export function parseMoney(value: string): bigint {
  if (!isMoneyString(value)) throw new RangeError(`not a money amount: ${value}`);
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

export function formatMoney(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * `formatMoney` for cents held as a number (rated amounts are): the same text, without a bigint per
 * amount while the amount is a safe integer; anything else goes through `formatMoney`, which refuses a
 * fraction of a cent as it always did.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) return formatMoney(BigInt(cents));
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  // Exact: `abs - fraction` is a multiple of 100, so the division has no remainder to round.
  const whole = (abs - fraction) / 100;
  return `${cents < 0 ? '-' : ''}${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/**
 * SPEC section 5: the amount input keeps digits and one decimal point, collapses repeated dots and
 * keeps at most `decimals` places.
 */
export function sanitizeAmountInput(raw: string, decimals = 2): string {
  let text = raw.replace(/[^\d.]/g, '').replace(/\.{2,}/g, '.');
  const dot = text.indexOf('.');
  if (dot !== -1) {
    const head = text.slice(0, dot);
    const tail = text.slice(dot + 1).replace(/\./g, '');
    text = decimals > 0 ? `${head}.${tail.slice(0, decimals)}` : head;
  }
  if (text.startsWith('.')) text = `0${text}`;
  return text;
}
