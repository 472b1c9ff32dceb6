import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { checkedAddresses, checkedLookup, hostOf } from '../../lib/public-address.ts';

export interface PostedAnswer {
  status: number;
  /** The start of the answer's body, for the delivery's note. */
  text: string;
}

export interface PostInit {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** How much of the answer's body is kept. */
  keepBytes: number;
}

/**
 * POSTs `body` to `url` and answers the status and the first `keepBytes` of the answer. The whole
 * try (connecting, sending, reading) ends at `timeoutMs`; redirects are not followed.
 */
export async function postWebhook(url: string, init: PostInit): Promise<PostedAnswer> {
  const target = new URL(url);
  // A socket given an address connects without a lookup: it is judged here instead.
  const literal = hostOf(target.hostname);
  if (isIP(literal)) await checkedAddresses(literal, init.allowPrivate);
  return send(target, init);
}

function send(target: URL, init: PostInit): Promise<PostedAnswer> {
  const client = target.protocol === 'https:' ? https : http;
  const body = Buffer.from(init.body);
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
