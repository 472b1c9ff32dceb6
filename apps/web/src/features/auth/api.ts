import { post } from '../../lib/http.ts';
import { encryptForServer } from '../../lib/rsa.ts';
import { sha256HexSync } from '../../lib/sha256.ts';

export const requestCode = (email: string, purpose: 'login' | 'register') =>
  post('/admin/auth/getVerificationCode', { email, purpose });

/**
 * SPEC section 7: the password travels hashed, and the whole payload RSA-encrypted when the browser
 * can (secure origins); otherwise as plain JSON with the hashed password.
 */
export async function login(email: string, password: string, code: string): Promise<string | undefined> {
  const payload = { email, password: sha256HexSync(password), code };
  let body: unknown = payload;
  try {
    const { publicKey } = await post<{ publicKey: string }>('/publicKey');
    const param = await encryptForServer(publicKey, payload);
    if (param) body = { param };
  } catch {
    // No key or no WebCrypto: the plain payload still carries only the hash.
  }
  const data = await post<{ token?: string }>('/admin/auth/login', body);
  return data?.token;
}
