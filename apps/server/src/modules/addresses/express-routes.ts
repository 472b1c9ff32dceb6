import type { ExpressAddressEntry } from '@freight/contracts/addresses';
import {
  addressImportedView,
  expressAddressDefaultBody,
  expressAddressImportQuery,
  expressAddressListQuery,
  expressAddressListView,
  expressAddressOptionsQuery,
  expressAddressSaveBody,
  fbaWarehousesView,
} from '@freight/contracts/addresses';
import { exportResponse } from '@freight/contracts/downloads';
import {
  addressCheckBody,
  addressCheckedView,
  expressAddressOptionsView,
} from '@freight/contracts/express-quotes';
import { findFbaWarehouses } from '@freight/contracts/fba-warehouses';
import { emptyResponse, okResponse, xlsxResponse } from '@freight/contracts/responses';
import { idBody, savedIdView } from '@freight/contracts/roles';
import { queryId, str } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badField, notFound } from '../../lib/errors.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, organisationScope } from '../customers/service.ts';
import { answerExport } from '../downloads/runner.ts';
import { importToBook } from './book-import.ts';
import { expressAddressExport } from './express-export.ts';
import {
  checkExpressAddress,
  deleteExpressAddress,
  expressAddressTemplate,
  insertExpressAddresses,
  listExpressAddresses,
  readExpressAddressFile,
  saveExpressAddress,
  setExpressDefault,
  visibleExpressAddress,
} from './express-service.ts';
import { bookOwner } from './service.ts';

/** The express address book's own page. */
const BOOK_PAGE = '/addressList';
/**
 * The express pages that fill a sender, a recipient or a return address from the book; the order list
 * too, whose holders may batch-order (the top bar's dialog picks the shipping address), and the
 * returns list, which sends parcels back to a return address.
 */
const EXPRESS_ADDRESS_PAGES = [
  '/onlineQuotation',
  '/queryQuotation',
  '/waybillValuation',
  BOOK_PAGE,
  '/expressOrderList',
  '/expressReturnsList',
];
const OPTIONS_LIMIT = 200;
/** Messages name the book's fields as the page does (`name` is the person on the label). */
const LABELS = 'expressAddress';

/** SPEC section 3 "Express shipping address option", with the rest of the address to fill the form. */
function asOption(entry: ExpressAddressEntry) {
  return {
    id: entry.id,
    address_code: `A${entry.id}`,
    name: entry.company || entry.name,
    detail: [entry.address1, entry.address2].filter(Boolean).join(', '),
    country: entry.country,
    province_code: entry.state,
    city: entry.city,
    zipcode: entry.zipcode,
    contact: entry.name,
    company: entry.company,
    dialCode: entry.dialCode,
    phone: entry.phone,
    email: entry.email,
    address1: entry.address1,
    address2: entry.address2,
    residential: entry.residential,
    isDefault: entry.isDefault,
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function visible(user: RequestUser, id: number) {
    const row = await visibleExpressAddress(db, await organisationScope(db, user), id);
    if (!row) throw notFound();
    return row;
  }

  /** The entries of one kind in the book of the organisation a quote is for, defaults first. */
  async function book(
    user: RequestUser,
    organisationId: number | undefined,
    kind: 'sender' | 'recipient' | 'return',
  ) {
    const scope = await organisationScope(db, user);
    const owner = organisationId ?? user.organisationId;
    if (!owner) return [];
    if (!(await canSeeOrganisation(db, scope, owner)))
      throw badField('organisationId', 'customers.parentNotVisible');
    const { list } = await listExpressAddresses(
      db,
      scope,
      { organisationId: owner, kind },
      { page: 1, limit: OPTIONS_LIMIT },
    );
    return list;
  }

  app.post(
    '/express/address/list',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        body: expressAddressListQuery,
        response: { 200: okResponse(expressAddressListView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, ...filter } = request.body;
      const { list, total } = await listExpressAddresses(db, await organisationScope(db, me), filter, {
        page,
        limit,
      });
      return { list, total, page, limit };
    },
  );

  /** Create or update; a US address must pass the ZIP / state / city check (`address/check`). */
  app.post(
    '/express/address/save',
    {
      config: { permission: 'express-address:save', audit: 'expressAddress.save', labelScope: LABELS },
      schema: {
        tags: ['express'],
        body: expressAddressSaveBody,
        response: { 200: okResponse(savedIdView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id, organisationId, kind, isDefault, ...address } = request.body;
      const checked = checkExpressAddress(address);
      if (checked.problem) {
        const { field, key, params } = checked.problem;
        throw badField(field, key, params);
      }
      // An existing entry stays in its book unless the caller names another one it may write to.
      const current = id ? await visible(me, id) : null;
      const owner =
        current && !organisationId ? current.organisationId : await bookOwner(db, me, organisationId);
      const saved = await saveExpressAddress(db, {
        tenantId: me.tenantId,
        organisationId: owner,
        id,
        userId: me.id,
        kind,
        address,
        place: checked.place,
        isDefault,
      });
      if (!saved) throw notFound();
      request.auditTarget = `express-address:${saved}`;
      return { id: saved };
    },
  );

  app.post(
    '/express/address/delete',
    {
      config: { permission: 'express-address:delete', audit: 'expressAddress.delete' },
      schema: { tags: ['express'], body: idBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visible(me, request.body.id);
      await deleteExpressAddress(db, me.tenantId, row.id);
      request.auditTarget = `express-address:${row.id}`;
      return null;
    },
  );

  app.post(
    '/express/address/setDefault',
    {
      config: { permission: 'express-address:save', audit: 'expressAddress.setDefault' },
      schema: { tags: ['express'], body: expressAddressDefaultBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visible(me, request.body.id);
      await setExpressDefault(db, row, request.body.isDefault);
      request.auditTarget = `express-address:${row.id}`;
      return null;
    },
  );

  /** Multipart `file` (xlsx); `?organisationId=` names whose book (staff must). All rows go in, or none. */
  app.post(
    '/express/address/import',
    {
      config: { permission: 'express-address:import', audit: 'expressAddress.import' },
      schema: {
        tags: ['express'],
        querystring: expressAddressImportQuery,
        response: { 200: okResponse(addressImportedView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const owner = await bookOwner(db, me, request.query.organisationId);
      return importToBook(request, reply, owner, readExpressAddressFile, (entries) =>
        insertExpressAddresses(db, { tenantId: me.tenantId, organisationId: owner, userId: me.id, entries }),
      );
    },
  );

  /** Few rows at once; more written by a job in the download centre (express-export.ts). */
  app.post(
    '/express/address/export',
    {
      config: { permission: BOOK_PAGE, raw: true },
      schema: { tags: ['express'], body: expressAddressListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, expressAddressExport, request.body),
  );

  app.post(
    '/express/address/template',
    {
      config: { permission: BOOK_PAGE, raw: true },
      schema: { tags: ['express'], response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const en = request.language === 'en-US';
      return sendFile(
        reply,
        en ? 'express-address-template.xlsx' : '快递地址导入模板.xlsx',
        await expressAddressTemplate(request.language),
      );
    },
  );

  /** `address/listOptions`: the senders parcels may ship from (`?kind=recipient`: usual recipients). */
  app.get(
    '/express/address/listOptions',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        querystring: expressAddressOptionsQuery,
        response: { 200: okResponse(expressAddressOptionsView) },
      },
    },
    async (request) => {
      const { organisationId, kind } = request.query;
      return { list: (await book(currentUser(request), organisationId, kind ?? 'sender')).map(asOption) };
    },
  );

  /** `address/returns`: the return addresses of the book, where returned parcels go back to. */
  app.get(
    '/express/address/returns',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        querystring: z.object({ organisationId: queryId().optional() }),
        response: { 200: okResponse(expressAddressOptionsView) },
      },
    },
    async (request) => ({
      list: (await book(currentUser(request), request.query.organisationId, 'return')).map(asOption),
    }),
  );

  /** `address/getFba`: Amazon FBA warehouses a parcel may be sent to. */
  app.get(
    '/express/address/getFba',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        querystring: z.object({ keyword: str().trim().max(50).optional() }),
        response: { 200: okResponse(fbaWarehousesView) },
      },
    },
    async (request) => findFbaWarehouses(request.query.keyword),
  );

  /**
   * `address/check`: a US address's ZIP, state and city must agree before booking; a mismatch is a
   * 400 naming the field with what the ZIP belongs to. Addresses abroad are taken as written.
   */
  app.post(
    '/express/address/check',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        body: addressCheckBody,
        response: { 200: okResponse(addressCheckedView) },
      },
    },
    async (request) => {
      const { zipcode, city, state, country } = request.body;
      const checked = checkExpressAddress({ zipcode, city, state, country });
      if (checked.problem) {
        const { field, key, params } = checked.problem;
        throw badField(field, key, params);
      }
      if (!checked.place) return { zipcode, city, state, country, confirmed: false };
      return { zipcode, ...checked.place, country, confirmed: true };
    },
  );
};

export default routes;
