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
import { classForDensity, cubicFeet, densityOf } from '@freight/contracts/truck-rating';
import { idField, queryId } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../lib/multipart.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import {
  deleteLanes,
  exportTariff,
  importTariff,
  insuranceFor,
  listLanes,
  listProducts,
  saveLane,
  saveProduct,
  saveProductTerms,
} from './catalogue.ts';
import { tariffWorkbook, templateLanes } from './tariffs.ts';

/** The page that manages tariffs, and the top bar's read-only view of them. */
const RULE_PAGES = ['/freightRule', '/productManagement'];
const MAX_TARIFF_BYTES = 10 * 1024 * 1024;

/** The two places a quote is asked for from: the online quote form and the quote list. */
const QUOTE_PAGES = ['/mail', '/quoteList', '/productManagement'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/admin/product/list',
    {
      config: { permission: QUOTE_PAGES },
      schema: { tags: ['truck'], body: productListQuery, response: { 200: okResponse(productListView) } },
    },
    async (request) => {
      return listProducts(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/product/save',
    {
      config: { labelScope: 'catalogue', permission: '/productManagement', audit: 'truck.product.save' },
      schema: { tags: ['truck'], body: productSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const id = await saveProduct(db, currentUser(request), request.body);
      request.auditTarget = `truckProduct:${id}`;
      return { id };
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
      const { productId, insuredValue } = request.body;
      return insuranceFor(db, currentUser(request).tenantId, productId, insuredValue);
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
      const id = await saveProductTerms(db, currentUser(request), request.body);
      request.auditTarget = `truckProduct:${id}`;
      return { id };
    },
  );

  /* ---------- lanes: the tariff of each product ---------- */

  app.post(
    '/admin/freightRule/lanes',
    {
      config: { permission: RULE_PAGES },
      schema: { tags: ['truck'], body: laneListQuery, response: { 200: okResponse(laneListView) } },
    },
    async (request) => {
      return listLanes(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/freightRule/lane/save',
    {
      config: { permission: '/freightRule', audit: 'truck.lane.save' },
      schema: { tags: ['truck'], body: laneSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const id = await saveLane(db, currentUser(request), request.body);
      request.auditTarget = `truckLane:${id}`;
      return { id };
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
      const { productId, ids } = request.body;
      const removed = await deleteLanes(db, currentUser(request), productId, ids);
      request.auditTarget = `truckProduct:${productId}`;
      return { removed };
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
      const { name, file } = await exportTariff(
        db,
        currentUser(request),
        request.query.productId,
        request.language,
      );
      return sendFile(reply, name, file);
    },
  );

  app.get(
    '/admin/freightRule/template',
    {
      config: { permission: '/freightRule', raw: true },
      schema: { tags: ['truck'], response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(reply, 'tariff-template.xlsx', await tariffWorkbook([], request.language, templateLanes())),
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
      const { productId } = request.query;
      const bytes = await readUploadedFile(request, MAX_TARIFF_BYTES, 'import.tooLarge');
      const imported = await importTariff(db, me, productId, bytes, request.language);
      request.auditTarget = `truckProduct:${productId}`;
      reply.messageKey = 'tariff.imported';
      reply.messageParams = { count: imported };
      return { imported };
    },
  );
};

export default routes;
