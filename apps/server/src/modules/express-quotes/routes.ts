import { quotationConfigBody, quotationConfigView } from '@freight/contracts/auth';
import {
  expressOptionsView,
  expressPriceSampleBody,
  expressPriceSampleView,
  expressQuoteIdBody,
  expressQuoteListQuery,
  expressQuoteListView,
  expressQuoteSaveBody,
  expressQuoteSavedView,
  expressQuoteView,
  expressRateStreamResponse,
  expressSelectBody,
  expressSelectedView,
} from '@freight/contracts/express-quotes';
import { UNIT_SYSTEMS } from '@freight/contracts/express-rating';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField } from '../../lib/errors.ts';
import { resultStream } from '../../lib/ndjson-stream.ts';
import { currentUser } from '../../plugins/context.ts';
import { streamErrorLine } from '../../plugins/envelope.ts';
import { visibleAddress } from '../addresses/service.ts';
import { saveQuotationConfig } from '../auth/service.ts';
import { organisationScope, parentOptions } from '../customers/service.ts';
import { findChannel } from '../express-channels/service.ts';
import { expressPriceSample } from './price-sample.ts';
import {
  expressQuoteInfoFor,
  listExpressQuotesFor,
  quotableChannels,
  rateExpressQuoteFor,
  saveExpressQuote,
  selectExpressChannelFor,
} from './service.ts';

/** Pages from which express quotes are asked for, read and paid. */
export const EXPRESS_QUOTE_PAGES = ['/onlineQuotation', '/queryQuotation', '/waybillValuation'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** `quotation/options`: the channels the caller may quote on, and whom staff may quote for. */
  app.get(
    '/express/quotation/options',
    {
      config: { permission: EXPRESS_QUOTE_PAGES, apiKey: 'quote' },
      schema: { tags: ['express'], response: { 200: okResponse(expressOptionsView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const [channels, customers] = await Promise.all([
        quotableChannels(db, me.tenantId, me.organisationId),
        me.identity === 'customer'
          ? Promise.resolve([])
          : organisationScope(db, me).then((scope) => parentOptions(db, scope, ['customer'])),
      ]);
      return {
        channels: channels.map((c) => ({
          channelId: c.id,
          productId: c.productId,
          code: c.code,
          name: c.name,
          nameEn: c.nameEn,
          productName: c.productName,
          productNameEn: c.productNameEn,
          carrier: c.carrier,
          service: c.service,
          scope: c.scope,
          unitSystem: c.unitSystem,
          transitDaysMin: c.transitDaysMin,
          transitDaysMax: c.transitDaysMax,
        })),
        unitSystems: UNIT_SYSTEMS,
        quoteTtlHours: app.config.QUOTE_TTL_HOURS,
        customers: customers.map((c) => ({ id: c.id, name: c.name })),
      };
    },
  );

  /** `quotation/getQuotas`: a new quote for a sender, a recipient and parcels. */
  app.post(
    '/express/quotation/getQuotas',
    {
      config: { permission: EXPRESS_QUOTE_PAGES, apiKey: 'quote', audit: 'express.quote.save' },
      schema: {
        tags: ['express'],
        body: expressQuoteSaveBody,
        response: { 200: okResponse(expressQuoteSavedView) },
      },
    },
    async (request) => {
      const quote = await saveExpressQuote(db, currentUser(request), request.body);
      request.auditTarget = `expressQuote:${quote.quoteNo}`;
      return { id: quote.id, quoteNo: quote.quoteNo };
    },
  );

  /** `quotation/rates`: each channel's price as it is computed, one JSON line each, then the end. */
  app.post(
    '/express/quotation/rates',
    {
      config: { permission: EXPRESS_QUOTE_PAGES, apiKey: 'quote', raw: true },
      schema: { tags: ['express'], body: expressQuoteIdBody, response: { 200: expressRateStreamResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      // A quote the caller may not see, or a booked one, answers in the envelope before any line.
      const stream = resultStream(reply);
      try {
        const { results, expiresAt } = await rateExpressQuoteFor(
          db,
          me,
          request.body.id,
          app.config.QUOTE_TTL_HOURS,
          (result) => stream.result(result),
        );
        stream.done(expiresAt, results);
      } catch (error) {
        if (!stream.started) throw error;
        request.log.error(error);
        stream.end(streamErrorLine(error, request.language));
      }
    },
  );

  /** `quotation/select`: the channel the customer books. */
  app.post(
    '/express/quotation/select',
    {
      config: { permission: EXPRESS_QUOTE_PAGES, apiKey: 'quote', audit: 'express.quote.select' },
      schema: {
        tags: ['express'],
        body: expressSelectBody,
        response: { 200: okResponse(expressSelectedView) },
      },
    },
    async (request) => {
      const { id, channelId } = request.body;
      request.auditTarget = `expressQuote:${id}`;
      return selectExpressChannelFor(db, currentUser(request), id, channelId);
    },
  );

  app.post(
    '/express/quotation/info',
    {
      config: { permission: EXPRESS_QUOTE_PAGES, apiKey: 'quote' },
      schema: {
        tags: ['express'],
        body: expressQuoteIdBody,
        response: { 200: okResponse(expressQuoteView) },
      },
    },
    async (request) => expressQuoteInfoFor(db, currentUser(request), request.body.id),
  );

  /** `/setPrice` and the express customer pages' price drawer: a sample parcel at every level. */
  app.post(
    '/express/price/sample',
    {
      config: { permission: ['/setPrice', 'customer:price'] },
      schema: {
        tags: ['express'],
        body: expressPriceSampleBody,
        response: { 200: okResponse(expressPriceSampleView) },
      },
    },
    async (request) => expressPriceSample(db, currentUser(request), request.body),
  );

  app.post(
    '/express/quotation/list',
    {
      config: { permission: EXPRESS_QUOTE_PAGES },
      schema: {
        tags: ['express'],
        body: expressQuoteListQuery,
        response: { 200: okResponse(expressQuoteListView) },
      },
    },
    async (request) => listExpressQuotesFor(db, currentUser(request), request.body),
  );

  app.post(
    '/express/customer/setQuotationConfig',
    {
      config: { audit: 'profile.quotationConfig' },
      schema: {
        tags: ['profile'],
        body: quotationConfigBody,
        response: { 200: okResponse(quotationConfigView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      // Preferences name only rows the user may see: another organisation's address is refused, and
      // channel ids that are not the tenant's (another tenant's, or deleted since) are left out.
      const pickup = request.body.defaultPickupAddressId;
      if (pickup !== null && !(await visibleAddress(db, await organisationScope(db, me), pickup)))
        throw badField('defaultPickupAddressId', 'validation.invalid');
      const hiddenChannelIds: number[] = [];
      for (const id of new Set(request.body.hiddenChannelIds))
        if (await findChannel(db, me.tenantId, id)) hiddenChannelIds.push(id);
      const config = { ...request.body, hiddenChannelIds };
      await saveQuotationConfig(db, me.tenantId, me.id, config);
      return config;
    },
  );
};

export default routes;
