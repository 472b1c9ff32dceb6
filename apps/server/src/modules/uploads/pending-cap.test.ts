import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { makePng, anonymousUpload as uploadWithoutSession } from '../../../test/helpers.ts';
import { LIMITS } from '../limits/service.ts';
import { uploads } from './schema.ts';
import { MAX_PENDING_PER_CLIENT, PENDING_LICENCE } from './service.ts';

/** Limits at four times production: the hour's uploads of one address are four times the pending cap. */
const SCALE = 4;
const f = useTestApp({ language: 'en-US', app: { config: { RATE_LIMIT_SCALE: SCALE } } });

const anonymousUpload = (ip: string, content: Buffer) => uploadWithoutSession(f.ctx, f.t.host, ip, content);

describe('the pending uploads of one address', () => {
  it('keeps no more than the cap when a burst of uploads from one address arrives at once', async () => {
    const cap = MAX_PENDING_PER_CLIENT * SCALE;
    // Every upload the hour's limit lets through, all at once: only the pending cap holds them back.
    const burst = LIMITS.anonymousUploadPerIp.max * SCALE;
    expect(burst).toBeGreaterThan(cap);
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) => anonymousUpload('192.0.2.44', makePng(2, 2, i))),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(cap);
    expect(codes.filter((code) => code === 429)).toHaveLength(burst - cap);
    const kept = await f.db
      .select({ key: uploads.key })
      .from(uploads)
      .where(and(eq(uploads.tenantId, f.t.tenant.id), eq(uploads.record, PENDING_LICENCE)));
    expect(kept).toHaveLength(cap);
    // Each upload answered is one kept.
    const urls = answers.filter((res) => res.statusCode === 200).map((res) => res.json().data[0]);
    expect(new Set(urls).size).toBe(cap);
    expect(new Set(kept.map((k) => `/api/uploads/${k.key}`))).toEqual(new Set(urls));
  });
});
