import {
  channelImportView,
  deliveryAreaDeleteBody,
  deliveryAreaSaveBody,
  expressChannelExportQuery,
  expressChannelListQuery,
  expressChannelListView,
  expressChannelQuery,
  expressChannelSaveBody,
  expressChannelView,
  expressEnableBody,
  expressIdBody,
  expressProductListQuery,
  expressProductListView,
  expressProductSaveBody,
  importedRowsView,
  priceTableBody,
  priceTableView,
  ratingRulesBody,
  ratingRulesView,
  samplePriceBody,
  samplePriceView,
  scheduledPricesDeleteBody,
  surchargeTermsView,
  zoneListQuery,
  zoneListView,
} from '@freight/contracts/express-channels';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import { savedIdView } from '@freight/contracts/roles';
import { dateField } from '@freight/contracts/truck-shipment';
import { queryId } from '@freight/contracts/validation';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../lib/multipart.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import {
  channelInfo,
  deleteChannel,
  deleteProduct,
  listChannels,
  listProducts,
  saveChannel,
  saveProduct,
  setChannelEnabled,
  setProductEnabled,
} from './catalogue.ts';
import { channelTemplate, exportChannels, importChannels } from './channel-sheet.ts';
import { ratingRulesInfo, sampleChannelPrice, saveRatingRules } from './rules.ts';
import {
  deleteDeliveryArea,
  deleteScheduledPrices,
  exportPriceTable,
  exportZoneChart,
  importPriceTable,
  importZoneChart,
  listZoneRows,
  priceTableInfo,
  priceWorkbook,
  saveDeliveryArea,
  savePriceTable,
  templatePrices,
  templateZoneRows,
  zoneWorkbook,
} from './tables.ts';

/** The express tariff pages (SPEC section 2); the later ones pick products and channels too. */
const PRODUCT_PAGE = '/expressProductManagement';
const CHANNEL_PAGE = '/expressChannelManag';
const ZONE_PAGE = '/partitionTable';
const PRICE_PAGE = '/channelPrice';
const CHANNEL_PICKERS = [CHANNEL_PAGE, ZONE_PAGE, PRICE_PAGE, '/setPrice'];
const PRODUCT_PICKERS = [PRODUCT_PAGE, ...CHANNEL_PICKERS];

/** As truck tariffs: a zone chart or price workbook is far smaller than this. */
const MAX_TABLE_BYTES = 10 * 1024 * 1024;

const tags = ['express'];
const channelQuery = z.object({ channelId: queryId() });
/** A price workbook's channel, and the first ship date it prices when it is loaded ahead. */
const priceImportQuery = channelQuery.extend({ effectiveFrom: dateField.optional() });

/** The uploaded workbook's bytes: the `file` field, refused by name when missing or too large. */
function uploadedWorkbook(request: FastifyRequest): Promise<Buffer> {
  return readUploadedFile(request, MAX_TABLE_BYTES, 'import.tooLarge');
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /* ---------- products ---------- */

  app.post(
    '/admin/expressProduct/list',
    {
      config: { permission: PRODUCT_PICKERS },
      schema: { tags, body: expressProductListQuery, response: { 200: okResponse(expressProductListView) } },
    },
    async (request) => listProducts(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/expressProduct/save',
    {
      config: { labelScope: 'catalogue', permission: PRODUCT_PAGE, audit: 'express.product.save' },
      schema: { tags, body: expressProductSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const id = await saveProduct(db, currentUser(request), request.body);
      request.auditTarget = `expressProduct:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/expressProduct/enable',
    {
      config: { permission: PRODUCT_PAGE, audit: 'express.product.enable' },
      schema: { tags, body: expressEnableBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const { id, enabled } = request.body;
      request.auditTarget = `expressProduct:${id}`;
      return { id: await setProductEnabled(db, currentUser(request), id, enabled) };
    },
  );

  app.post(
    '/admin/expressProduct/delete',
    {
      config: { permission: PRODUCT_PAGE, audit: 'express.product.delete' },
      schema: { tags, body: expressIdBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      request.auditTarget = `expressProduct:${request.body.id}`;
      return { id: await deleteProduct(db, currentUser(request), request.body.id) };
    },
  );

  /* ---------- channels ---------- */

  app.post(
    '/admin/expressChannel/list',
    {
      config: { permission: CHANNEL_PICKERS },
      schema: { tags, body: expressChannelListQuery, response: { 200: okResponse(expressChannelListView) } },
    },
    async (request) => listChannels(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/expressChannel/info',
    {
      config: { permission: CHANNEL_PICKERS },
      schema: { tags, body: expressIdBody, response: { 200: okResponse(expressChannelView) } },
    },
    async (request) => channelInfo(db, currentUser(request), request.body.id),
  );

  app.post(
    '/admin/expressChannel/save',
    {
      config: { labelScope: 'catalogue', permission: CHANNEL_PAGE, audit: 'express.channel.save' },
      schema: { tags, body: expressChannelSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const id = await saveChannel(db, currentUser(request), request.body);
      request.auditTarget = `expressChannel:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/expressChannel/enable',
    {
      config: { permission: CHANNEL_PAGE, audit: 'express.channel.enable' },
      schema: { tags, body: expressEnableBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const { id, enabled } = request.body;
      request.auditTarget = `expressChannel:${id}`;
      return { id: await setChannelEnabled(db, currentUser(request), id, enabled) };
    },
  );

  app.post(
    '/admin/expressChannel/delete',
    {
      config: { permission: CHANNEL_PAGE, audit: 'express.channel.delete' },
      schema: { tags, body: expressIdBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.id}`;
      return { id: await deleteChannel(db, currentUser(request), request.body.id) };
    },
  );

  /** The channels of the list's filters, every page, in the template's columns (so it imports back). */
  app.post(
    '/admin/expressChannel/export',
    {
      config: { permission: CHANNEL_PAGE, raw: true },
      schema: { tags, body: expressChannelExportQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(
        reply,
        'express-channels.xlsx',
        await exportChannels(db, currentUser(request), request.body, request.language),
      ),
  );

  app.get(
    '/admin/expressChannel/template',
    {
      config: { permission: CHANNEL_PAGE, raw: true },
      schema: { tags, response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(
        reply,
        'express-channels-template.xlsx',
        await channelTemplate(db, currentUser(request), request.language),
      ),
  );

  /** Adds the file's new channels and updates those whose code exists: every row, or none when one is bad. */
  app.post(
    '/admin/expressChannel/import',
    {
      config: { permission: CHANNEL_PAGE, audit: 'express.channel.import' },
      schema: { tags, response: { 200: okResponse(channelImportView) } },
    },
    async (request, reply) => {
      const result = await importChannels(
        db,
        currentUser(request),
        await uploadedWorkbook(request),
        request.language,
      );
      reply.messageKey = 'expressChannel.channelsImported';
      reply.messageParams = { count: result.imported, created: result.created, updated: result.updated };
      return result;
    },
  );

  /* ---------- zone charts ---------- */

  app.post(
    '/admin/expressZone/list',
    {
      config: { permission: ZONE_PAGE },
      schema: { tags, body: zoneListQuery, response: { 200: okResponse(zoneListView) } },
    },
    async (request) => listZoneRows(db, currentUser(request), request.body),
  );

  app.get(
    '/admin/expressZone/export',
    {
      config: { permission: ZONE_PAGE, raw: true },
      schema: { tags, querystring: channelQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const { name, file } = await exportZoneChart(
        db,
        currentUser(request),
        request.query.channelId,
        request.language,
      );
      return sendFile(reply, name, file);
    },
  );

  app.get(
    '/admin/expressZone/template',
    {
      config: { permission: ZONE_PAGE, raw: true },
      schema: { tags, response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(reply, 'zones-template.xlsx', await zoneWorkbook([], request.language, templateZoneRows())),
  );

  /** Replaces a channel's zone chart with the workbook's rows: all of them, or none when a row is bad. */
  app.post(
    '/admin/expressZone/import',
    {
      config: { permission: ZONE_PAGE, audit: 'express.zones.import' },
      schema: { tags, querystring: channelQuery, response: { 200: okResponse(importedRowsView) } },
    },
    async (request, reply) => {
      const { channelId } = request.query;
      const imported = await importZoneChart(
        db,
        currentUser(request),
        channelId,
        await uploadedWorkbook(request),
        request.language,
      );
      request.auditTarget = `expressChannel:${channelId}`;
      reply.messageKey = 'expressChannel.zonesImported';
      reply.messageParams = { count: imported };
      return { imported };
    },
  );

  /* ---------- price tables and delivery areas ---------- */

  app.post(
    '/admin/channelPrice/info',
    {
      config: { permission: PRICE_PAGE },
      schema: { tags, body: expressChannelQuery, response: { 200: okResponse(priceTableView) } },
    },
    async (request) => priceTableInfo(db, currentUser(request), request.body.channelId),
  );

  app.post(
    '/admin/channelPrice/save',
    {
      config: { permission: PRICE_PAGE, audit: 'express.prices.save' },
      schema: { tags, body: priceTableBody, response: { 200: okResponse(priceTableView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.channelId}`;
      return savePriceTable(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/channelPrice/scheduled/delete',
    {
      config: { permission: PRICE_PAGE, audit: 'express.prices.unschedule' },
      schema: { tags, body: scheduledPricesDeleteBody, response: { 200: okResponse(priceTableView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.channelId}`;
      return deleteScheduledPrices(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/channelPrice/rules/info',
    {
      config: { permission: PRICE_PAGE },
      schema: { tags, body: expressChannelQuery, response: { 200: okResponse(ratingRulesView) } },
    },
    async (request) => ratingRulesInfo(db, currentUser(request), request.body.channelId),
  );

  app.post(
    '/admin/channelPrice/rules/save',
    {
      config: { permission: PRICE_PAGE, audit: 'express.rules.save' },
      schema: { tags, body: ratingRulesBody, response: { 200: okResponse(ratingRulesView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.channelId}`;
      return saveRatingRules(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/channelPrice/sample',
    {
      config: { permission: PRICE_PAGE },
      schema: { tags, body: samplePriceBody, response: { 200: okResponse(samplePriceView) } },
    },
    async (request) => sampleChannelPrice(db, currentUser(request), request.body),
  );

  app.get(
    '/admin/channelPrice/export',
    {
      config: { permission: PRICE_PAGE, raw: true },
      schema: { tags, querystring: channelQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const { name, file } = await exportPriceTable(
        db,
        currentUser(request),
        request.query.channelId,
        request.language,
      );
      return sendFile(reply, name, file);
    },
  );

  app.get(
    '/admin/channelPrice/template',
    {
      config: { permission: PRICE_PAGE, raw: true },
      schema: { tags, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      return sendFile(
        reply,
        'prices-template.xlsx',
        await priceWorkbook(null, [], 'lb_in', request.language, templatePrices()),
      );
    },
  );

  /** Replaces a channel's price table (and delivery areas, when the file has them) in one update. */
  app.post(
    '/admin/channelPrice/import',
    {
      config: { permission: PRICE_PAGE, audit: 'express.prices.import' },
      schema: { tags, querystring: priceImportQuery, response: { 200: okResponse(importedRowsView) } },
    },
    async (request, reply) => {
      const { channelId, effectiveFrom } = request.query;
      const { brackets, areas, scheduled } = await importPriceTable(
        db,
        currentUser(request),
        channelId,
        await uploadedWorkbook(request),
        request.language,
        effectiveFrom,
      );
      request.auditTarget = `expressChannel:${channelId}`;
      reply.messageKey = scheduled ? 'expressChannel.pricesScheduled' : 'expressChannel.pricesImported';
      reply.messageParams = scheduled
        ? { count: brackets, date: effectiveFrom ?? '' }
        : { count: brackets, areas };
      return { imported: brackets };
    },
  );

  app.post(
    '/admin/channelPrice/deliveryArea/save',
    {
      config: { permission: PRICE_PAGE, audit: 'express.deliveryArea.save' },
      schema: { tags, body: deliveryAreaSaveBody, response: { 200: okResponse(surchargeTermsView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.channelId}`;
      return saveDeliveryArea(db, currentUser(request), request.body);
    },
  );

  app.post(
    '/admin/channelPrice/deliveryArea/delete',
    {
      config: { permission: PRICE_PAGE, audit: 'express.deliveryArea.delete' },
      schema: { tags, body: deliveryAreaDeleteBody, response: { 200: okResponse(surchargeTermsView) } },
    },
    async (request) => {
      request.auditTarget = `expressChannel:${request.body.channelId}`;
      return deleteDeliveryArea(db, currentUser(request), request.body);
    },
  );
};

export default routes;
