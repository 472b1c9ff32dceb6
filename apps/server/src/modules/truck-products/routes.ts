import { ResultCode } from '@freight/contracts/api';
import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import { savedIdView } from '@freight/contracts/roles';
import {
  classSuggestionsView,
  getClassBody,
  insuredAmountBody,
  insuredAmountView,
  laneListQuery,
  laneListView,
  laneSaveBody,
  lanesImportedView,
  lanesRemovedView,
  productListQuery,
  productListView,
  productSaveBody,
  productTermsBody,
} from '@freight/contracts/truck-products';
import { classForDensity, cubicFeet, densityOf, insurancePremium } from '@freight/contracts/truck-rating';
import { idField, queryId } from '@freight/contracts/validation';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badField, forbidden, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { readWorkbook, sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { findOrganisation } from '../customers/service.ts';
import { truckLanes, truckProducts } from './schema.ts';
import { findProduct, type ProductRow } from './service.ts';
import { laneTerms, laneToApi, parseTariffWorkbook, tariffWorkbook, templateLanes } from './tariffs.ts';

/** The page that manages tariffs, and the top bar's read-only view of them. */
const RULE_PAGES = ['/freightRule', '/productManagement'];
const MAX_TARIFF_BYTES = 10 * 1024 * 1024;

/** A product as the API answers it: money as decimal strings, percentages as text. */
function productToApi({ tenantId: _t, insurance, accessorialFees, ...p }: ProductRow) {
  return {
    ...p,
    accessorialFees: Object.fromEntries(
      Object.entries(accessorialFees).map(([code, fee]) => [code, formatMoney(BigInt(fee ?? 0))]),
    ),
    insuranceRatePercent: formatPercentBp(insurance.rateBp),
    minimumPremium: formatMoney(BigInt(insurance.minimumPremium)),
    deductible: formatMoney(BigInt(insurance.deductible)),
  };
}

/** The two places a quote is asked for from: the online quote form and the quote list. */
const QUOTE_PAGES = ['/mail', '/quoteList', '/productManagement'];

/** Products open to an organisation: those listing none, or listing it or one above it. */
function openTo(ancestors: number[]) {
  const listed =
    ancestors.length > 0
      ? sql`exists (select 1 from jsonb_array_elements_text(${truckProducts.organisationIds}) as e(id) where e.id::bigint in (${sql.join(
          ancestors.map((id) => sql`${id}`),
          sql`, `,
        )}))`
      : sql`false`;
  return or(sql`jsonb_array_length(${truckProducts.organisationIds}) = 0`, listed);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/admin/product/list',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['truck'], body: productListQuery, response: { 200: okResponse(productListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, keyword, mode, enabled } = request.body;
      // Customers see the enabled products open to them; staff manage every product.
      const staff = me.identity === 'employee';
      const organisation = me.organisationId
        ? await findOrganisation(db, me.tenantId, me.organisationId)
        : null;
      const ancestors = (organisation?.path ?? '').split('/').filter(Boolean).map(Number);
      const condition = and(
        eq(truckProducts.tenantId, me.tenantId),
        keyword
          ? or(
              ilike(truckProducts.code, `%${keyword}%`),
              ilike(truckProducts.name, `%${keyword}%`),
              ilike(truckProducts.nameEn, `%${keyword}%`),
              ilike(truckProducts.carrier, `%${keyword}%`),
            )
          : undefined,
        mode ? eq(truckProducts.mode, mode) : undefined,
        staff
          ? enabled === undefined
            ? undefined
            : eq(truckProducts.enabled, enabled)
          : and(eq(truckProducts.enabled, true), openTo(ancestors)),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(truckProducts)
          .where(condition)
          .orderBy(desc(truckProducts.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(truckProducts).where(condition),
      ]);
      return { list: rows.map(productToApi), total: total?.n ?? 0, page, limit };
    },
  );

  app.post(
    '/admin/product/save',
    {
      config: { permission: '/productManagement', audit: 'truck.product.save' },
      schema: { tags: ['truck'], body: productSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const me = currentUser(request);
      if (me.identity !== 'employee') throw forbidden();
      const { id, ...fields } = request.body;
      const [clash] = await db
        .select({ id: truckProducts.id })
        .from(truckProducts)
        .where(
          and(
            eq(truckProducts.tenantId, me.tenantId),
            eq(truckProducts.code, fields.code),
            id ? ne(truckProducts.id, id) : undefined,
          ),
        )
        .limit(1);
      if (clash) throw badField('code', 'truck.codeTaken');
      try {
        if (id) {
          const [row] = await db
            .update(truckProducts)
            .set(fields)
            .where(and(eq(truckProducts.tenantId, me.tenantId), eq(truckProducts.id, id)))
            .returning({ id: truckProducts.id });
          if (!row) throw notFound();
          request.auditTarget = `truckProduct:${id}`;
          return { id };
        }
        const [row] = await db
          .insert(truckProducts)
          .values({ tenantId: me.tenantId, ...fields })
          .returning({ id: truckProducts.id });
        if (!row) throw notFound();
        request.auditTarget = `truckProduct:${row.id}`;
        return { id: row.id };
      } catch (error) {
        if (isUniqueViolation(error)) throw badField('code', 'truck.codeTaken');
        throw error;
      }
    },
  );

  /** SPEC section 7 `quotation/getClass`: each line's density and the freight class it suggests. */
  app.post(
    '/admin/quotation/getClass',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['truck'], body: getClassBody, response: { 200: okResponse(classSuggestionsView) } },
    },
    async (request) => ({
      lines: request.body.lines.map((line) => {
        const density = densityOf(line);
        return {
          cubicFeet: Math.round(cubicFeet(line) * 100) / 100,
          density: Math.round(density * 100) / 100,
          suggestedClass: classForDensity(density),
          freightClass: line.freightClass ?? classForDensity(density),
        };
      }),
    }),
  );

  /** SPEC section 7 `quotation/insuredAmount`: the premium and deductible a product charges for a value. */
  app.post(
    '/admin/quotation/insuredAmount',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['truck'], body: insuredAmountBody, response: { 200: okResponse(insuredAmountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const [product] = await db
        .select()
        .from(truckProducts)
        .where(and(eq(truckProducts.tenantId, me.tenantId), eq(truckProducts.id, request.body.productId)))
        .limit(1);
      if (!product) throw notFound();
      const value = parseMoney(request.body.insuredValue);
      const premium = BigInt(insurancePremium(Number(value), product.insurance));
      return {
        insuredValue: formatMoney(value),
        premium: formatMoney(premium),
        deductible: formatMoney(BigInt(product.insurance.deductible)),
      };
    },
  );

  /** Accessorial fees and insurance terms of a product. */
  app.post(
    '/admin/product/saveTerms',
    {
      config: { permission: '/productManagement', audit: 'truck.product.terms' },
      schema: { tags: ['truck'], body: productTermsBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const me = currentUser(request);
      if (me.identity !== 'employee') throw forbidden();
      const { id, accessorialFees, insuranceRatePercent, minimumPremium, deductible } = request.body;
      const [row] = await db
        .update(truckProducts)
        .set({
          accessorialFees: Object.fromEntries(
            Object.entries(accessorialFees).map(([code, fee]) => [code, Number(parseMoney(fee))]),
          ),
          insurance: {
            rateBp: parsePercentBp(insuranceRatePercent),
            minimumPremium: Number(parseMoney(minimumPremium)),
            deductible: Number(parseMoney(deductible)),
          },
        })
        .where(and(eq(truckProducts.tenantId, me.tenantId), eq(truckProducts.id, id)))
        .returning({ id: truckProducts.id });
      if (!row) throw notFound();
      request.auditTarget = `truckProduct:${id}`;
      return { id };
    },
  );

  /* ---------- lanes: the tariff of each product ---------- */

  const staffProduct = async (request: import('fastify').FastifyRequest, productId: number) => {
    const me = currentUser(request);
    if (me.identity !== 'employee') throw forbidden();
    const product = await findProduct(db, me.tenantId, productId);
    if (!product) throw notFound();
    return product;
  };

  app.post(
    '/admin/freightRule/lanes',
    {
      config: { permission: RULE_PAGES },
      schema: { tags: ['truck'], body: laneListQuery, response: { 200: okResponse(laneListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { productId, keyword, page, limit } = request.body;
      await staffProduct(request, productId);
      const condition = and(
        eq(truckLanes.tenantId, me.tenantId),
        eq(truckLanes.productId, productId),
        keyword
          ? or(ilike(truckLanes.origin, `%${keyword}%`), ilike(truckLanes.destination, `%${keyword}%`))
          : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(truckLanes)
          .where(condition)
          .orderBy(asc(truckLanes.origin), asc(truckLanes.destination))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(truckLanes).where(condition),
      ]);
      return { list: rows.map(laneToApi), total: total?.n ?? 0, page, limit };
    },
  );

  app.post(
    '/admin/freightRule/lane/save',
    {
      config: { permission: '/freightRule', audit: 'truck.lane.save' },
      schema: { tags: ['truck'], body: laneSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { id, productId, origin, destination } = request.body;
      const product = await staffProduct(request, productId);
      const terms = laneTerms(request.body);
      if (product.mode === 'LTL' && !terms.ltl) throw badField('ltl', 'validation.required');
      if (product.mode === 'FTL' && !terms.ftl) throw badField('ftl', 'validation.required');
      try {
        if (id) {
          const [row] = await db
            .update(truckLanes)
            .set({ origin, destination, ...terms })
            .where(
              and(
                eq(truckLanes.tenantId, me.tenantId),
                eq(truckLanes.id, id),
                eq(truckLanes.productId, productId),
              ),
            )
            .returning({ id: truckLanes.id });
          if (!row) throw notFound();
          request.auditTarget = `truckLane:${id}`;
          return { id };
        }
        const [row] = await db
          .insert(truckLanes)
          .values({ tenantId: me.tenantId, productId, origin, destination, ...terms })
          .returning({ id: truckLanes.id });
        if (!row) throw notFound();
        request.auditTarget = `truckLane:${row.id}`;
        return { id: row.id };
      } catch (error) {
        if (isUniqueViolation(error)) throw badField('destination', 'truck.laneTaken');
        throw error;
      }
    },
  );

  app.post(
    '/admin/freightRule/lane/delete',
    {
      config: { permission: '/freightRule', audit: 'truck.lane.delete' },
      schema: {
        tags: ['truck'],
        body: z.object({
          productId: idField(),
          ids: z.array(idField()).min(1).max(500),
        }),
        response: { 200: okResponse(lanesRemovedView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      await staffProduct(request, request.body.productId);
      const removed = await db
        .delete(truckLanes)
        .where(
          and(
            eq(truckLanes.tenantId, me.tenantId),
            eq(truckLanes.productId, request.body.productId),
            inArray(truckLanes.id, request.body.ids),
          ),
        )
        .returning({ id: truckLanes.id });
      request.auditTarget = `truckProduct:${request.body.productId}`;
      return { removed: removed.length };
    },
  );

  const productQuery = z.object({ productId: queryId() });

  app.get(
    '/admin/freightRule/export',
    {
      config: { permission: RULE_PAGES, raw: true },
      schema: { tags: ['truck'], querystring: productQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const product = await staffProduct(request, request.query.productId);
      const lanes = await db
        .select()
        .from(truckLanes)
        .where(and(eq(truckLanes.tenantId, me.tenantId), eq(truckLanes.productId, product.id)))
        .orderBy(asc(truckLanes.origin), asc(truckLanes.destination));
      return sendFile(reply, `tariff-${product.code}.xlsx`, await tariffWorkbook(lanes, request.language));
    },
  );

  app.get(
    '/admin/freightRule/template',
    {
      config: { permission: '/freightRule', raw: true },
      schema: { tags: ['truck'], response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(reply, 'tariff-template.xlsx', await tariffWorkbook(templateLanes(), request.language)),
  );

  /** Replaces a product's lanes with those of the workbook: all of them, or none when a row is bad. */
  app.post(
    '/admin/freightRule/import',
    {
      config: { permission: '/freightRule', audit: 'truck.tariff.import' },
      schema: {
        tags: ['truck'],
        querystring: productQuery,
        response: { 200: okResponse(lanesImportedView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const product = await staffProduct(request, request.query.productId);
      const file = await request.file({ limits: { fileSize: MAX_TARIFF_BYTES + 1 } }).catch(() => undefined);
      if (!file) throw badField('file', 'validation.fileMissing');
      const bytes = await file.toBuffer().catch(() => null);
      if (!bytes || file.file.truncated) throw badField('file', 'import.tooLarge');
      const workbook = await readWorkbook(bytes);
      if (!workbook) throw badField('file', 'import.notXlsx');
      const parsed = parseTariffWorkbook(workbook, request.language);
      if ('errors' in parsed)
        throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, { errors: parsed.errors });
      const wrongMode = parsed.lanes.find((l) => (product.mode === 'LTL' ? !l.ltl : !l.ftl));
      if (wrongMode)
        throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, {
          errors: [
            {
              sheet: '',
              row: 0,
              message: translate(request.language, 'tariff.wrongMode', {
                mode: product.mode,
                lane: `${wrongMode.origin} → ${wrongMode.destination}`,
              }),
            },
          ],
        });
      await db.transaction(async (tx) => {
        await tx
          .delete(truckLanes)
          .where(and(eq(truckLanes.tenantId, me.tenantId), eq(truckLanes.productId, product.id)));
        await tx.insert(truckLanes).values(
          parsed.lanes.map((lane) => ({
            tenantId: me.tenantId,
            productId: product.id,
            origin: lane.origin,
            destination: lane.destination,
            ...laneTerms(lane),
          })),
        );
      });
      request.auditTarget = `truckProduct:${product.id}`;
      reply.messageKey = 'tariff.imported';
      reply.messageParams = { count: parsed.lanes.length };
      return { imported: parsed.lanes.length };
    },
  );
};

export default routes;
