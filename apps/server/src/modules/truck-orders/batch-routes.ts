import { ResultCode } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import type { Shipment, ShipmentAddress } from '@freight/contracts/truck-shipment';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badField } from '../../lib/errors.ts';
import { readWorkbook, sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { visibleAddress } from '../addresses/service.ts';
import { findOrganisation, organisationScope } from '../customers/service.ts';
import {
  enabledProducts,
  loadRatingContext,
  productOpenTo,
  type RatingContext,
  rateAll,
  roadMiles,
} from '../truck-products/service.ts';
import { quoteOrganisation } from '../truck-quotes/service.ts';
import { batchTemplate, chooseResult, readBatchSheet } from './batch.ts';
import { type BookInput, bookOrders } from './service.ts';

/** The top bar's truck batch order works from any page that books truck orders. */
const BATCH_PAGES = ['/mail', '/orderList', '/quoteList'];
const MAX_BATCH_BYTES = 20 * 1024 * 1024;

const batchQuery = z.object({ organisationId: z.coerce.number().int().positive().optional() });

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The template: headers in the caller's language, dropdowns, the products the caller may book. */
  app.get(
    '/admin/order/batchTemplate',
    { config: { permission: BATCH_PAGES, raw: true }, schema: { tags: ['orders'] } },
    async (request, reply) => {
      const me = currentUser(request);
      const organisation = me.organisationId
        ? await findOrganisation(db, me.tenantId, me.organisationId)
        : null;
      const products = [
        ...(await enabledProducts(db, me.tenantId, 'LTL')),
        ...(await enabledProducts(db, me.tenantId, 'FTL')),
      ]
        .filter((p) => me.identity === 'employee' || productOpenTo(p, organisation?.path ?? null))
        .map((p) => p.code);
      const name = request.language === 'zh-CN' ? '卡车批量下单模板.xlsx' : 'truck-batch-template.xlsx';
      return sendFile(reply, name, await batchTemplate(request.language, products));
    },
  );

  /**
   * Checks a batch file, and with `commit` books every row as an unpaid order in one transaction. The
   * answer maps each row number to `success` or its message (SPEC section 7); any bad row books none.
   */
  async function handleBatch(request: import('fastify').FastifyRequest, commit: boolean) {
    const me = currentUser(request);
    let bytes: Buffer | null = null;
    const fields: Record<string, string> = {};
    try {
      for await (const part of request.parts({ limits: { fileSize: MAX_BATCH_BYTES + 1, files: 1 } })) {
        if (part.type === 'file') {
          bytes = await part.toBuffer();
          if (part.file.truncated) throw badField('file', 'import.tooLarge');
        } else fields[part.fieldname] = String(part.value ?? '');
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badField('file', 'import.tooLarge');
    }
    if (!bytes) throw badField('file', 'validation.fileMissing');
    const query = batchQuery.parse(request.query);
    const organisationId = await quoteOrganisation(
      db,
      me,
      query.organisationId ?? (Number(fields.organisationId) || undefined),
    );
    if (!organisationId) throw badField('organisationId', 'quote.organisationRequired');
    const organisation = await findOrganisation(db, me.tenantId, organisationId);
    if (!organisation) throw badField('organisationId', 'quote.organisationRequired');

    // SPEC section 5: for the truck batch the shipping address is optional; given, it is every row's pickup.
    let pickup: ShipmentAddress | null = null;
    const addressId = Number(fields.address_id ?? fields.addressId ?? 0);
    if (addressId > 0) {
      const row = await visibleAddress(db, await organisationScope(db, me), addressId);
      if (!row) throw badField('address_id', 'batch.addressNotFound');
      const {
        id: _i,
        tenantId: _t,
        organisationId: _o,
        isDefaultPickup: _d,
        createdAt: _c,
        updatedAt: _u,
        ...address
      } = row as Record<string, unknown>;
      pickup = { ...(address as unknown as ShipmentAddress), saveToBook: false };
    }

    const workbook = await readWorkbook(bytes);
    if (!workbook) throw badField('file', 'import.notXlsx');
    const today = new Date().toISOString().slice(0, 10);
    const sheet = readBatchSheet(workbook, request.language, today, pickup);
    if (!sheet.ok)
      throw new AppError(ResultCode.BadInput, sheet.key, sheet.params ?? {}, [
        { field: 'file', key: sheet.key, params: sheet.params ?? {} },
      ]);

    // One rating context per mode: the tariffs and markups are read once for the whole file.
    const contexts = new Map<Shipment['mode'], RatingContext>();
    const contextFor = async (shipment: Shipment) => {
      const cached = contexts.get(shipment.mode);
      if (cached) return cached;
      const context = await loadRatingContext(db, me.tenantId, organisation, shipment, null);
      contexts.set(shipment.mode, context);
      return context;
    };
    const answers = new Map<number, string>(sheet.errors);
    const inputs: BookInput[] = [];
    for (const row of sheet.rows) {
      const context = await contextFor(row.shipment);
      const miles =
        row.shipment.mode === 'FTL'
          ? roadMiles(row.shipment.pickup.zipcode, row.shipment.delivery.zipcode)
          : null;
      const chosen = chooseResult(rateAll(row.shipment, { ...context, miles }), row.productCode);
      if ('reason' in chosen) {
        answers.set(row.row, translate(request.language, chosen.reason as MessageKey));
        continue;
      }
      answers.set(row.row, 'success');
      inputs.push({
        tenantId: me.tenantId,
        organisationId,
        userId: me.id,
        quoteId: null,
        taskId: null,
        shipment: row.shipment,
        result: chosen,
        customerOrderNo: row.customerOrderNo,
        orderType: 'regular',
        shippingNote: '',
        receivingNote: '',
        extraNote: row.note,
      });
    }
    const data = Object.fromEntries(
      [...answers.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v]),
    );
    const failed = [...answers.values()].filter((v) => v !== 'success').length;
    if (failed > 0) {
      if (commit)
        throw new AppError(ResultCode.BadInput, 'batch.rowsFailed', { count: failed }, undefined, data);
      return { data, failed, ok: inputs.length };
    }
    if (!commit) return { data, failed: 0, ok: inputs.length };
    const booked = await db.transaction((tx) => bookOrders(tx, me.tenantId, inputs, 'batch'));
    request.auditTarget = `orders:${booked.length}`;
    return { data, failed: 0, ok: booked.length, orders: booked };
  }

  app.post(
    '/admin/order/importDataCheck',
    { config: { permission: BATCH_PAGES }, schema: { tags: ['orders'], querystring: batchQuery } },
    async (request, reply) => {
      const result = await handleBatch(request, false);
      reply.messageKey = result.failed > 0 ? 'batch.rowsFailed' : 'batch.checked';
      reply.messageParams = { count: result.failed > 0 ? result.failed : result.ok };
      return result.data;
    },
  );

  app.post(
    '/admin/order/batchOrdering',
    {
      config: { permission: BATCH_PAGES, audit: 'order.batch' },
      schema: { tags: ['orders'], querystring: batchQuery },
    },
    async (request, reply) => {
      const result = await handleBatch(request, true);
      reply.messageKey = 'batch.imported';
      reply.messageParams = { count: result.ok };
      return result.data;
    },
  );
};

export default routes;
