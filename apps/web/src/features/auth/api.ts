import type {
  loginView,
  publicKeyView,
  registrationOption,
  registrationOptionsView,
} from '@freight/contracts/auth';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';
import { encryptForServer } from '../../lib/rsa.ts';
import { sha256Hex } from '../../lib/sha256.ts';

export const requestCode = (email: string, purpose: 'login' | 'register') =>
  post('/admin/auth/getVerificationCode', { email, purpose });

/**
 * SPEC section 7: the password travels hashed, and the whole payload RSA-encrypted when the browser
 * can (WebCrypto exists on secure origins only); otherwise as plain JSON with the hashed password.
 */
export async function login(email: string, password: string, code: string): Promise<string | undefined> {
  const payload = { email, password: await sha256Hex(password), code };
  let body: unknown = payload;
  if (globalThis.isSecureContext && globalThis.crypto?.subtle) {
    const { publicKey } = await post<Wire<typeof publicKeyView>>('/publicKey');
    const param = await encryptForServer(publicKey, payload).catch(() => null);
    if (param) body = { param };
  }
  const data = await post<Wire<typeof loginView> | null>('/admin/auth/login', body);
  return data?.token || undefined;
}

export type RegistrationOption = Wire<typeof registrationOption>;
export type RegistrationOptions = Wire<typeof registrationOptionsView>;

export const registrationOptions = () => post<RegistrationOptions>('/admin/auth/options');

/** The shipper's registration; passwords go in plain text because the server checks their length. */
export const register = (values: Record<string, unknown>) => post('/admin/auth/register', values);

/** Whether an invitation code is live; the answer never says whose it is. */
export const checkInvitation = (invitationCode: string) =>
  post<{ valid: boolean }>('/admin/auth/checkInvitation', { invitationCode });

export const requestPasswordReset = (email: string) => post('/admin/auth/retrievePassword', { email });

export const resetPassword = (token: string, password: string, confirmPassword: string) =>
  post('/admin/auth/retrievePassword', { token, password, confirmPassword });
