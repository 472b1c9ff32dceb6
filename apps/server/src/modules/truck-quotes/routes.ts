import { okResponse } from '@freight/contracts/responses';
import { savedIdView } from '@freight/contracts/roles';
import {
  quoteBaseInfoView,
  quoteCustomerOptionsView,
  quoteListView,
  quoteSavedView,
  quoteView,
  rateStreamResponse,
  saveQuotationBody,
  TASK_STATUSES,
  taskActionBody,
  taskDetailView,
  taskListQuery,
  taskListView,
  taskRequestBody,
  taskRequestedView,
  taskStatusView,
} from '@freight/contracts/truck-quotes';
import { ACCESSORIALS, FREIGHT_CLASSES } from '@freight/contracts/truck-rating';
import {
  ADDRESS_TYPES,
  PALLET_TYPES,
  quoteDetailBody,
  quoteIdBody,
  quoteListQuery,
  quoteLocationBody,
  quoteSaveBody,
} from '@freight/contracts/truck-shipment';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resultStream } from '../../lib/ndjson-stream.ts';
import { currentUser } from '../../plugins/context.ts';
import { streamErrorLine } from '../../plugins/envelope.ts';
import { organisationScope, parentOptions } from '../customers/service.ts';
import { changeQuote, listQuotes, quoteForCaller, rateQuoteFor, saveQuote, visibleQuote } from './service.ts';
import {
  actOnVisibleTask,
  listTasks,
  priceVisibleTask,
  requestTaskFor,
  taskDetail,
  taskForCaller,
} from './tasks.ts';

/** Pages from which quotes are asked for and read. */
const QUOTE_PAGES = ['/mail', '/quoteList'];
const TASK_PAGES = ['/quotationList', '/mail', '/quoteList'];

const dayStart = (date?: string) => (date ? new Date(`${date}T00:00:00Z`) : undefined);
const dayAfter = (date?: string) =>
  date ? new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000) : undefined;

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** `quotation/getQuotationBaseInfo`: the choices of the quote form. */
  app.post(
    '/admin/quotation/getQuotationBaseInfo',
    {
      config: { permission: QUOTE_PAGES, apiKey: 'quote' },
      schema: { tags: ['quotes'], response: { 200: okResponse(quoteBaseInfoView) } },
    },
    async () => ({
      accessorials: ACCESSORIALS,
      freightClasses: FREIGHT_CLASSES,
      addressTypes: ADDRESS_TYPES,
      palletTypes: PALLET_TYPES,
      quoteTtlHours: app.config.QUOTE_TTL_HOURS,
    }),
  );

  /** The customers a staff member, branch or agent may quote for (the quote form's picker). */
  app.post(
    '/admin/quotation/customerOptions',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['quotes'], response: { 200: okResponse(quoteCustomerOptionsView) } },
    },
    async (request) => {
      const me = currentUser(request);
      if (me.identity === 'customer') return { list: [] };
      return { list: await parentOptions(db, await organisationScope(db, me), ['customer']) };
    },
  );

  /** `quotation/save`: a new quote for a whole shipment. */
  app.post(
    '/admin/quotation/save',
    {
      config: { permission: QUOTE_PAGES, apiKey: 'quote', audit: 'quote.save' },
      schema: { tags: ['quotes'], body: quoteSaveBody, response: { 200: okResponse(quoteSavedView) } },
    },
    async (request) => {
      const quote = await saveQuote(db, currentUser(request), request.body);
      request.auditTarget = `quote:${quote.quoteNo}`;
      return { id: quote.id, quoteNo: quote.quoteNo, manualReason: quote.manualReason };
    },
  );

  /** `quotation/saveQuotationLocation`: new addresses; the old prices are gone. */
  app.post(
    '/admin/quotation/saveQuotationLocation',
    {
      config: { permission: QUOTE_PAGES, audit: 'quote.location' },
      schema: { tags: ['quotes'], body: quoteLocationBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const { id, pickup, delivery } = request.body;
      const quote = await changeQuote(db, currentUser(request), id, { pickup, delivery });
      request.auditTarget = `quote:${quote.quoteNo}`;
      return { id };
    },
  );

  /** `quotation/saveQuotationDetail`: new goods, services, insurance or dates; the old prices are gone. */
  app.post(
    '/admin/quotation/saveQuotationDetail',
    {
      config: { permission: QUOTE_PAGES, audit: 'quote.detail' },
      schema: { tags: ['quotes'], body: quoteDetailBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const { id, ...detail } = request.body;
      const quote = await changeQuote(db, currentUser(request), id, detail);
      request.auditTarget = `quote:${quote.quoteNo}`;
      return { id };
    },
  );

  /** `quotation/getQuotationInfo`: the quote, its shipment and the prices the caller may see. */
  app.post(
    '/admin/quotation/getQuotationInfo',
    {
      config: { permission: TASK_PAGES, apiKey: 'quote' },
      schema: { tags: ['quotes'], body: quoteIdBody, response: { 200: okResponse(quoteView) } },
    },
    async (request) => {
      const me = currentUser(request);
      return quoteForCaller(await visibleQuote(db, me, request.body.id), me);
    },
  );

  /**
   * Prices the quote with every product and streams each result as one line of JSON as soon as it
   * is ready, then a closing line with the expiry (ARCHITECTURE section 7: results stream in).
   */
  app.post(
    '/admin/quotation/rates',
    {
      config: { permission: QUOTE_PAGES, apiKey: 'quote', raw: true },
      schema: { tags: ['quotes'], body: quoteIdBody, response: { 200: rateStreamResponse } },
    },
    async (request, reply) => {
      // A quote the caller may not see, or a booked one, answers in the envelope before any line.
      const stream = resultStream(reply);
      try {
        const { results, expiresAt, streamed } = await rateQuoteFor(
          db,
          currentUser(request),
          request.body.id,
          app.config.QUOTE_TTL_HOURS,
          (result) => stream.result(result),
        );
        if (streamed) stream.done(expiresAt, results);
        else stream.all(expiresAt, results);
      } catch (error) {
        if (!stream.started) throw error;
        request.log.error(error);
        stream.end(streamErrorLine(error, request.language));
      }
    },
  );

  app.post(
    '/admin/quotation/list',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['quotes'], body: quoteListQuery, response: { 200: okResponse(quoteListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, from, to, ...filter } = request.body;
      const { rows, total } = await listQuotes(
        db,
        me,
        { ...filter, from: dayStart(from), to: dayAfter(to) },
        page,
        limit,
      );
      return { list: rows.map((q) => quoteForCaller(q, me)), total, page, limit };
    },
  );

  /* ---------- manual quotation tasks ---------- */

  app.post(
    '/admin/quotation/task/request',
    {
      config: { permission: QUOTE_PAGES, audit: 'quote.task.request' },
      schema: { tags: ['quotes'], body: taskRequestBody, response: { 200: okResponse(taskRequestedView) } },
    },
    async (request) => {
      const task = await requestTaskFor(db, currentUser(request), request.body.quoteId, request.body.note);
      request.auditTarget = `quotationTask:${task.taskNo}`;
      return { id: task.id, taskNo: task.taskNo };
    },
  );

  app.post(
    '/admin/quotation/task/list',
    {
      config: { permission: TASK_PAGES },
      schema: { tags: ['quotes'], body: taskListQuery, response: { 200: okResponse(taskListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, ...filter } = request.body;
      const { rows, total } = await listTasks(db, me, filter, page, limit);
      return { list: rows.map((t) => taskForCaller(t, me)), total, page, limit, statuses: TASK_STATUSES };
    },
  );

  app.post(
    '/admin/quotation/task/info',
    {
      config: { permission: TASK_PAGES },
      schema: { tags: ['quotes'], body: quoteIdBody, response: { 200: okResponse(taskDetailView) } },
    },
    async (request) => {
      return taskDetail(db, currentUser(request), request.body.id);
    },
  );

  /** `quotation/saveQuotation`: staff price a manual quotation task. */
  app.post(
    '/admin/quotation/saveQuotation',
    {
      config: { permission: 'quotation-task:price', audit: 'quote.task.price' },
      schema: { tags: ['quotes'], body: saveQuotationBody, response: { 200: okResponse(taskStatusView) } },
    },
    async (request) => {
      const { id, ...price } = request.body;
      const { task, status } = await priceVisibleTask(db, currentUser(request), id, price);
      request.auditTarget = `quotationTask:${task.taskNo}`;
      return { id, status };
    },
  );

  app.post(
    '/admin/quotation/task/action',
    {
      config: { permission: TASK_PAGES, audit: 'quote.task.action' },
      schema: { tags: ['quotes'], body: taskActionBody, response: { 200: okResponse(taskStatusView) } },
    },
    async (request) => {
      const { id, action, note } = request.body;
      const { task, status } = await actOnVisibleTask(db, currentUser(request), id, action, note);
      request.auditTarget = `quotationTask:${task.taskNo}`;
      return { id, status };
    },
  );
};

export default routes;
