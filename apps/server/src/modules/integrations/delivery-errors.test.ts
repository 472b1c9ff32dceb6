import { lookup } from 'node:dns/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AddressRefused } from '../../lib/public-address.ts';
import { deliveryErrorText, deliveryFailureKey } from './delivery-errors.ts';

/** The error a real request to `url` fails with, under a time limit. */
function failureOf(url: string, timeoutMs = 5_000): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', signal: AbortSignal.timeout(timeoutMs) }, () =>
      resolve(new Error('answered')),
    );
    req.on('error', resolve);
    req.end('{}');
  });
}

/** A port nothing listens on: one a server held a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

describe('webhook delivery failures', () => {
  it('keeps why a delivery failed as a reason, from the real errors of the network', async () => {
    expect(deliveryFailureKey(await failureOf(`http://127.0.0.1:${await closedPort()}/hook`))).toBe(
      'webhook.failure.refused',
    );
    // A server that never answers: the request's time limit ends it.
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const { port } = silent.address() as AddressInfo;
      expect(deliveryFailureKey(await failureOf(`http://127.0.0.1:${port}/hook`, 200))).toBe(
        'webhook.failure.timeout',
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
    // `.invalid` never resolves (RFC 2606).
    const dns = await lookup('receiver.invalid').catch((e: unknown) => e);
    expect(deliveryFailureKey(dns)).toBe('webhook.failure.dns');
    expect(deliveryFailureKey(new AddressRefused())).toBe('webhook.failure.blocked');
    expect(deliveryFailureKey(new TypeError('fetch failed'))).toBe('webhook.failure.network');
  });

  it('shows the reason in the reader’s language, an answer’s status as it is, and old rows in words too', () => {
    expect(deliveryErrorText('webhook.failure.refused', 'en-US')).toBe('Connection refused');
    expect(deliveryErrorText('webhook.failure.refused', 'zh-CN')).toBe('连接被拒绝');
    expect(deliveryErrorText('webhook.failure.timeout', 'en-US')).toBe('Timed out');
    expect(deliveryErrorText('webhook.failure.dns', 'en-US')).toBe('DNS lookup failed');
    expect(deliveryErrorText('HTTP 500: try later', 'zh-CN')).toBe('HTTP 500: try later');
    // Written before reasons were kept: the transport's words, shown as the reason they stand for.
    expect(deliveryErrorText('fetch failed', 'zh-CN')).toBe('网络错误,无法连接');
    expect(deliveryErrorText('endpoint disabled', 'zh-CN')).toBe('地址已停用');
    expect(deliveryErrorText(null, 'en-US')).toBeNull();
  });
});
