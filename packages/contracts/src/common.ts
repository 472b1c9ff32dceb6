import { z } from 'zod';
import { okResponse, rawResponse, timestamp } from './responses.ts';

/* Plumbing shared by every area: server time, address check, ads, uploads, the dev mailbox. */

export const serverTimeView = z.object({ time: timestamp, timestamp: z.number().int() });

export const checkedAddressView = z.object({
  valid: z.boolean(),
  normalized: z.object({
    address1: z.string(),
    city: z.string(),
    state: z.string(),
    zipcode: z.string(),
    country: z.string(),
  }),
});

export const adsView = z.object({ list: z.array(z.object({ title: z.string(), url: z.string() })) });

/** An upload answers the addresses of the stored files. */
export const uploadedUrls = z.array(z.string());

export const mailboxView = z.object({
  list: z.array(
    z.object({
      id: z.number().int(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: timestamp,
    }),
  ),
});

/** The dev mailbox answers JSON for tools and a page for a browser. */
export const mailboxResponse = {
  description: 'The messages kept instead of sent',
  content: {
    'application/json': { schema: okResponse(mailboxView) },
    'text/html': rawResponse('text/html', '').content['text/html'],
  },
};

/** A stored upload: an image or a document, as its bytes. */
export const uploadFileResponse = rawResponse(
  [
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'image/x-icon',
    'image/vnd.microsoft.icon',
    'application/pdf',
  ],
  'The stored file',
);
