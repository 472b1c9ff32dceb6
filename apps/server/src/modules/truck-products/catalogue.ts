import type { Language } from '@freight/contracts/api';
import { ResultCode } from '@freight/contracts/api';
import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import type {
  LaneSaveBody,
  laneListQuery,
  productListQuery,
  productSaveBody,
  productTermsBody,
} from '@freight/contracts/truck-products';
import { insurancePremium } from '@freight/contracts/truck-rating';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, badField, forbidden, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { readWorkbook } from '../../lib/xlsx.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { findOrganisation } from '../customers/service.ts';
import { truckLanes, truckProducts } from './schema.ts';
import { findProduct, type ProductRow } from './service.ts';
import { laneTerms, laneToApi, parseTariffWorkbook, tariffWorkbook } from './tariffs.ts';

/*
 * The operator's catalogue: its truck products, their terms and their lanes, as staff manage them
 * and as customers see the products open to them.
 */

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

/** A product as the API answers it: money as decimal strings, percentages as text. */
export function productToApi({ tenantId: _t, insurance, accessorialFees, ...p }: ProductRow) {
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

/** A page of products: staff see every product, others the enabled ones open to them. */
export async function listProducts(db: DbOrTx, caller: Caller, query: z.infer<typeof productListQuery>) {
  const { page, limit, keyword, mode, enabled } = query;
  const staff = caller.identity === 'employee';
  const organisation = caller.organisationId
    ? await findOrganisation(db, caller.tenantId, caller.organisationId)
    : null;
  const ancestors = (organisation?.path ?? '').split('/').filter(Boolean).map(Number);
  const condition = and(
    eq(truckProducts.tenantId, caller.tenantId),
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
}

/** Staff add or change a product; its code is unique within the tenant. */
export async function saveProduct(
  db: DbOrTx,
  caller: Caller,
  body: z.infer<typeof productSaveBody>,
): Promise<number> {
  if (caller.identity !== 'employee') throw forbidden();
  const { id, ...fields } = body;
  const [clash] = await db
    .select({ id: truckProducts.id })
    .from(truckProducts)
    .where(
      and(
        eq(truckProducts.tenantId, caller.tenantId),
        eq(truckProducts.code, fields.code),
        id ? ne(truckProducts.id, id) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw badField('code', 'truck.codeTaken');
  try {
    const [row] = id
      ? await db
          .update(truckProducts)
          .set(fields)
          .where(and(eq(truckProducts.tenantId, caller.tenantId), eq(truckProducts.id, id)))
          .returning({ id: truckProducts.id })
      : await db
          .insert(truckProducts)
          .values({ tenantId: caller.tenantId, ...fields })
          .returning({ id: truckProducts.id });
    if (!row) throw notFound();
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw badField('code', 'truck.codeTaken');
    throw error;
  }
}

/** The premium and deductible a product charges to insure a value. */
export async function insuranceFor(db: DbOrTx, tenantId: number, productId: number, insuredValue: string) {
  const product = await findProduct(db, tenantId, productId);
  if (!product) throw notFound();
  const value = parseMoney(insuredValue);
  const premium = BigInt(insurancePremium(Number(value), product.insurance));
  return {
    insuredValue: formatMoney(value),
    premium: formatMoney(premium),
    deductible: formatMoney(BigInt(product.insurance.deductible)),
  };
}

/** Accessorial fees and insurance terms of a product. */
export async function saveProductTerms(db: DbOrTx, caller: Caller, body: z.infer<typeof productTermsBody>) {
  if (caller.identity !== 'employee') throw forbidden();
  const { id, accessorialFees, insuranceRatePercent, minimumPremium, deductible } = body;
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
    .where(and(eq(truckProducts.tenantId, caller.tenantId), eq(truckProducts.id, id)))
    .returning({ id: truckProducts.id });
  if (!row) throw notFound();
  return id;
}

/* ---------- lanes: the tariff of each product ---------- */

/** A product whose tariff staff manage; 403 for anyone else, 404 for another tenant's. */
export async function staffProduct(db: DbOrTx, caller: Caller, productId: number): Promise<ProductRow> {
  if (caller.identity !== 'employee') throw forbidden();
  const product = await findProduct(db, caller.tenantId, productId);
  if (!product) throw notFound();
  return product;
}

export async function listLanes(db: DbOrTx, caller: Caller, query: z.infer<typeof laneListQuery>) {
  const { productId, keyword, page, limit } = query;
  await staffProduct(db, caller, productId);
  const condition = and(
    eq(truckLanes.tenantId, caller.tenantId),
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
}

/** Adds or changes one lane; a lane has the terms of its product's mode, one lane per pair of ends. */
export async function saveLane(db: DbOrTx, caller: Caller, body: LaneSaveBody): Promise<number> {
  const { id, productId, origin, destination } = body;
  const product = await staffProduct(db, caller, productId);
  const terms = laneTerms(body);
  if (product.mode === 'LTL' && !terms.ltl) throw badField('ltl', 'validation.required');
  if (product.mode === 'FTL' && !terms.ftl) throw badField('ftl', 'validation.required');
  try {
    const [row] = id
      ? await db
          .update(truckLanes)
          .set({ origin, destination, ...terms })
          .where(
            and(
              eq(truckLanes.tenantId, caller.tenantId),
              eq(truckLanes.id, id),
              eq(truckLanes.productId, productId),
            ),
          )
          .returning({ id: truckLanes.id })
      : await db
          .insert(truckLanes)
          .values({ tenantId: caller.tenantId, productId, origin, destination, ...terms })
          .returning({ id: truckLanes.id });
    if (!row) throw notFound();
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw badField('destination', 'truck.laneTaken');
    throw error;
  }
}

export async function deleteLanes(db: DbOrTx, caller: Caller, productId: number, ids: number[]) {
  await staffProduct(db, caller, productId);
  const removed = await db
    .delete(truckLanes)
    .where(
      and(
        eq(truckLanes.tenantId, caller.tenantId),
        eq(truckLanes.productId, productId),
        inArray(truckLanes.id, ids),
      ),
    )
    .returning({ id: truckLanes.id });
  return removed.length;
}

/** A product's tariff as a workbook in the caller's language. */
export async function exportTariff(db: DbOrTx, caller: Caller, productId: number, language: Language) {
  const product = await staffProduct(db, caller, productId);
  const lanes = await db
    .select()
    .from(truckLanes)
    .where(and(eq(truckLanes.tenantId, caller.tenantId), eq(truckLanes.productId, product.id)))
    .orderBy(asc(truckLanes.origin), asc(truckLanes.destination));
  return { name: `tariff-${product.code}.xlsx`, file: await tariffWorkbook(lanes, language) };
}

/** Replaces a product's lanes with those of the workbook: all of them, or none when a row is bad. */
export async function importTariff(
  db: DbOrTx,
  caller: Caller,
  productId: number,
  bytes: Buffer,
  language: Language,
): Promise<number> {
  const product = await staffProduct(db, caller, productId);
  const workbook = await readWorkbook(bytes);
  if (!workbook) throw badField('file', 'import.notXlsx');
  const parsed = parseTariffWorkbook(workbook, language);
  if ('errors' in parsed)
    throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, { errors: parsed.errors });
  const wrongMode = parsed.lanes.find((l) => (product.mode === 'LTL' ? !l.ltl : !l.ftl));
  if (wrongMode)
    throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, {
      errors: [
        {
          sheet: '',
          row: 0,
          message: translate(language, 'tariff.wrongMode', {
            mode: product.mode,
            lane: `${wrongMode.origin} → ${wrongMode.destination}`,
          }),
        },
      ],
    });
  await db.transaction(async (tx) => {
    await tx
      .delete(truckLanes)
      .where(and(eq(truckLanes.tenantId, caller.tenantId), eq(truckLanes.productId, product.id)));
    await tx.insert(truckLanes).values(
      parsed.lanes.map((lane) => ({
        tenantId: caller.tenantId,
        productId: product.id,
        origin: lane.origin,
        destination: lane.destination,
        ...laneTerms(lane),
      })),
    );
  });
  return parsed.lanes.length;
}
