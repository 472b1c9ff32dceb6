import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { useSecondCopy } from '../../../test/second-copy.ts';

/**
 * Two copies of the server on one PostgreSQL database, the second built from a fresh load of the
 * modules as a second process would be. Keys are read from the table on every call, so a key revoked
 * through one copy is refused by the other on the very next call, with no wait.
 */
const f = useTestApp({ signIn: ['customer'], language: 'en-US' });
const other = useSecondCopy(f);

const quoteCall = (app: FastifyInstance, key: { prefix: string; key: string }) =>
  app.inject({
    method: 'POST',
    url: '/api/admin/quotation/getQuotationBaseInfo',
    headers: { host: f.t.host, 'accept-language': 'en-US', apiid: key.prefix, userkey: key.key },
    payload: {},
  });

describe('API keys across server processes', () => {
  it('refuses a key on the other copy the moment one copy revokes it', async () => {
    const key = await f.as('customer').ok('/api/admin/apiKey/create', { name: 'ERP', scopes: ['quote'] });
    expect((await quoteCall(other.app, key)).json().code).toBe(200);
    expect((await quoteCall(f.ctx.app, key)).json().code).toBe(200);

    await f.as('customer').ok('/api/admin/apiKey/revoke', { id: key.id });
    // No waiting, no retry: the very next call on either copy is refused.
    expect((await quoteCall(other.app, key)).json()).toMatchObject({ code: 300 });
    expect((await quoteCall(f.ctx.app, key)).json()).toMatchObject({ code: 300 });
  });
});
