import { formatMoney, isMoneyString, parseMoney } from '@freight/contracts/money';

/**
 * Money on the page: the API sends decimal strings ("1250.50"), and the page never turns them into
 * floats. Sums and comparisons run on integer cents (bigint) through the shared parser; what is shown
 * goes through `money`, a decimal string in and a formatted string out.
 */

/** Cents of an API amount; an empty or malformed one counts as nothing. */
const centsOf = (amount: string | null | undefined): bigint =>
  amount && isMoneyString(amount) ? parseMoney(amount) : 0n;

/** An amount as the pages show it: two places, with the currency sign in front when given ("$12.50"). */
export function money(amount: string | null | undefined, sign = ''): string {
  if (amount === null || amount === undefined || amount === '' || !isMoneyString(amount)) return '-';
  const text = formatMoney(parseMoney(amount));
  return text.startsWith('-') ? `-${sign}${text.slice(1)}` : `${sign}${text}`;
}

/** The exact sum of API amounts, as an API amount. */
export function sumMoney(amounts: readonly (string | null | undefined)[]): string {
  return formatMoney(amounts.reduce((sum, a) => sum + centsOf(a), 0n));
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`. */
export function compareMoney(a: string, b: string): -1 | 0 | 1 {
  const diff = centsOf(a) - centsOf(b);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

/** -1, 0 or 1: whether an amount takes money out, moves none, or puts money in. */
export const moneySign = (amount: string): -1 | 0 | 1 => compareMoney(amount, '0');
