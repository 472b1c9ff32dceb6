import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { z } from 'zod';

/** Spaces, dashes, dots and brackets people type inside a number. */
const SEPARATORS = /[\s\-().]/g;

/** The number as typed, without the separators people put inside it. */
export function compactPhone(phone: string): string {
  return phone.replace(SEPARATORS, '');
}

/**
 * Whether `phone` is a real number under the dial code chosen beside it, by the numbering plan of that
 * code's countries. A number typed with its own `+` and code is judged by that code instead. SPEC
 * section 5's "11 digits starting with 1" is the Chinese mobile plan, so it applies to +86 only.
 */
export function isValidPhone(phone: string, dialCode: string): boolean {
  const digits = compactPhone(phone);
  if (!/^\+?\d{4,17}$/.test(digits)) return false;
  if (digits.startsWith('+')) return isValidPhoneNumber(digits);
  if (!/^\d{1,4}$/.test(dialCode)) return false;
  if (dialCode === '86') return /^1\d{10}$/.test(digits) && isValidPhoneNumber(`+86${digits}`);
  return isValidPhoneNumber(`+${dialCode}${digits}`);
}

/**
 * A phone number stored with no dial code beside it (profile, staff): one written with `+` and its code,
 * or else a number of SPEC section 9's default code 1, or a Chinese mobile number.
 */
export function isValidPhoneWithoutDialCode(phone: string): boolean {
  return isValidPhone(phone, '1') || isValidPhone(phone, '86');
}

/** The message key for a number refused under `dialCode`. */
export function phoneMessageKey(dialCode: string): 'validation.phone' | 'validation.phoneForDialCode' {
  return dialCode === '86' ? 'validation.phone' : 'validation.phoneForDialCode';
}

/**
 * A phone number with no dial code chosen beside it (profile, staff); registration checks by dial code.
 * Digits and separators only, so no control character passes either.
 */
export const phoneField = z
  .string()
  .trim()
  .max(30)
  .refine(isValidPhoneWithoutDialCode, { error: 'validation.phoneInternational' });
