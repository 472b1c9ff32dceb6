import { describe, expect, it } from 'vitest';
import { LIMITS } from '../src/modules/limits/service.ts';
import { MAX_PENDING_PER_CLIENT } from '../src/modules/uploads/service.ts';
import { useTestApp } from './fixture.ts';
import { makePng, anonymousUpload as uploadWithoutSession } from './helpers.ts';

/** The production limits (scale 1): what a visitor with no session may upload. */
const f = useTestApp({ language: 'en-US', app: { config: { RATE_LIMIT_SCALE: 1 } } });

const anonymousUpload = (ip: string, content: Buffer, filename?: string) =>
  uploadWithoutSession(f.ctx, f.t.host, ip, content, filename);

describe('uploads without a session', () => {
  it('keeps only a few licences of one address waiting for a registration', async () => {
    for (let i = 0; i < MAX_PENDING_PER_CLIENT; i++) {
      const res = await anonymousUpload('203.0.113.10', makePng(2, 2, i));
      expect(res.json()).toMatchObject({ code: 200 });
    }
    const over = await anonymousUpload('203.0.113.10', makePng(3, 3));
    expect(over.statusCode).toBe(429);
    expect(over.json().msg).toBe(
      `This network already has ${MAX_PENDING_PER_CLIENT} files waiting for a registration; finish registering or try again later`,
    );
    // Another address is not held back by it.
    expect((await anonymousUpload('203.0.113.11', makePng())).json()).toMatchObject({ code: 200 });
  });

  it('counts an address’s uploads per hour, refused ones too, far below the other public calls', async () => {
    const rule = LIMITS.anonymousUploadPerIp;
    expect(rule.max).toBeLessThanOrEqual(LIMITS.publicPerIp.max / 10);
    const notAnImage = Buffer.from('plain text, not an image');
    for (let i = 0; i < rule.max; i++) {
      const res = await anonymousUpload('198.51.100.20', notAnImage, 'x.png');
      expect(res.statusCode).toBe(400);
    }
    const limited = await anonymousUpload('198.51.100.20', makePng());
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
