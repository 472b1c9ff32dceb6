import { formatMoney, parseMoney } from '@freight/contracts/money';
import { getClassBody, insuredAmountBody, productListQuery, productSaveBody } from '@freight/contracts/truck';
import { classForDensity, cubicFeet, densityOf, insurancePremium } from '@freight/contracts/truck-rating';
import { and, count, desc, eq, ilike, ne, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField, forbidden, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { truckProducts } from './schema.ts';

/** The two places a quote is asked for from: the online quote form and the quote list. */
const QUOTE_PAGES = ['/mail', '/quoteList', '/productManagement'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/admin/product/list',
    { config: { permission: QUOTE_PAGES }, schema: { tags: ['truck'], body: productListQuery } },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, keyword, mode, enabled } = request.body;
      // Customers see the enabled products open to them; staff manage every product.
      const staff = me.identity === 'employee';
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
          : eq(truckProducts.enabled, true),
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
      return { list: rows.map(({ tenantId: _t, ...r }) => r), total: total?.n ?? 0, page, limit };
    },
  );

  app.post(
    '/admin/product/save',
    {
      config: { permission: '/productManagement', audit: 'truck.product.save' },
      schema: { tags: ['truck'], body: productSaveBody },
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
        request.auditTarget = `truckProduct:${row?.id}`;
        return { id: row?.id };
      } catch (error) {
        if (isUniqueViolation(error)) throw badField('code', 'truck.codeTaken');
        throw error;
      }
    },
  );

  /** SPEC section 7 `quotation/getClass`: each line's density and the freight class it suggests. */
  app.post(
    '/admin/quotation/getClass',
    { config: { permission: QUOTE_PAGES }, schema: { tags: ['truck'], body: getClassBody } },
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
    { config: { permission: QUOTE_PAGES }, schema: { tags: ['truck'], body: insuredAmountBody } },
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
};

export default routes;
