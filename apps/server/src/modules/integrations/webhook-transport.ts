import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is one the public internet routes to: IPv4 unicast outside every special range
 * (private, loopback, link-local, shared, documentation, benchmarking, reserved...), IPv6 inside global
 * unicast (2000::/3) and outside its special ranges (documentation, 6to4, Teredo, NAT64...). An IPv4
 * address written as IPv6 is judged as IPv4; `::7f00:1` (IPv4-compatible) is outside 2000::/3. The
 * classification is a maintained one's, not a list kept here.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && (parsed as ipaddr.IPv6).match(ipaddr.IPv6.parse('2000::'), 3);
}

export class AddressRefused extends Error {
  constructor() {
    super('the address is private or local');
  }
}

/**
 * A DNS lookup for the socket that refuses a name with any non-public address, and hands the socket
 * the very address it checked: the name is not resolved a second time between check and connect, so
 * a name that answers differently the second time (rebinding) cannot reach a private address.
 */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const host = hostname.replace(/^\[|\]$/g, '');
    const family = isIP(host);
    const resolved = family
      ? Promise.resolve([{ address: host, family }])
      : lookup(host, { all: true, verbatim: true });
    resolved.then(
      (found) => {
        if (found.length === 0 || (!allowPrivate && found.some((a) => !isPublicAddress(a.address))))
          return callback(new AddressRefused(), '', 4);
        const [first] = found as [{ address: string; family: number }];
        if ((options as { all?: boolean }).all) return callback(null, found as never);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/** Whether a URL's host resolves only to public addresses (a name that does not resolve is not). */
export async function reachesOnlyPublic(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host);
  try {
    const found = await lookup(host, { all: true });
    return found.length > 0 && found.every((a) => isPublicAddress(a.address));
  } catch {
    return false;
  }
}

export interface PostedAnswer {
  status: number;
  /** The start of the answer's body, for the delivery's note. */
  text: string;
}

/**
 * POSTs `body` to `url` and answers the status and the first `keepBytes` of the answer. The whole
 * try (connecting, sending, reading) ends at `timeoutMs`; redirects are not followed.
 */
export function postWebhook(
  url: string,
  init: {
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    allowPrivate: boolean;
    keepBytes: number;
  },
): Promise<PostedAnswer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const body = Buffer.from(init.body);
  // A socket given an address connects without a lookup: it is judged here instead.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !init.allowPrivate && !isPublicAddress(literal))
    return Promise.reject(new AddressRefused());
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...init.headers, 'content-length': String(body.length) },
        lookup: checkedLookup(init.allowPrivate),
        signal: AbortSignal.timeout(init.timeoutMs),
        // One connection per try: a receiver's slowness never holds a pooled socket for the next.
        agent: false,
      },
      (response) => {
        const kept: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= init.keepBytes) return;
          kept.push(chunk);
          size += chunk.length;
          if (size >= init.keepBytes) response.destroy();
        });
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(kept).subarray(0, init.keepBytes).toString('utf8'),
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
