import type { Language } from '@freight/contracts/api';
import { isMessageKey, type MessageKey, translate } from '@freight/contracts/messages';
import { AddressRefused } from '../../lib/public-address.ts';

type FailureReason = 'refused' | 'timeout' | 'dns' | 'reset' | 'tls' | 'blocked' | 'network';

const BY_CODE: Record<string, FailureReason> = {
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
};

function codeOf(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return String(e?.code ?? e?.cause?.code ?? '');
}

/**
 * Why a delivery could not reach its receiver, as the message key the log keeps (read in the reader's
 * language when listed): never the transport's own English ("fetch failed"), which says nothing.
 */
export function deliveryFailureKey(error: unknown): MessageKey {
  if (error instanceof AddressRefused) return 'webhook.failure.blocked';
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'webhook.failure.timeout';
  const code = codeOf(error);
  const reason = BY_CODE[code];
  if (reason) return `webhook.failure.${reason}`;
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'webhook.failure.tls';
  return 'webhook.failure.network';
}

/**
 * A delivery's last error in the reader's language: a reason kept as a key is put into words; an
 * answer's status stays as it is ("HTTP 500: ..."); rows kept before reasons were keys say
 * "fetch failed", which is the network reason.
 */
export function deliveryErrorText(stored: string | null, language: Language): string | null {
  if (stored === null) return null;
  if (stored.startsWith('webhook.failure.') && isMessageKey(stored)) return translate(language, stored);
  if (stored === 'fetch failed') return translate(language, 'webhook.failure.network');
  if (stored === 'endpoint disabled') return translate(language, 'webhook.failure.disabled');
  return stored;
}
