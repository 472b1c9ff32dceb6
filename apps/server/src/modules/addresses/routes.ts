import {
  addressDefaultBody,
  addressImportedView,
  addressImportQuery,
  addressListQuery,
  addressListView,
  addressOwnersView,
  addressSaveBody,
  addressSetDefaultBody,
  defaultPickupView,
  fbaLookupBody,
  fbaWarehousesView,
  zipLookupBody,
  zipPlacesView,
} from '@freight/contracts/addresses';
import { exportResponse } from '@freight/contracts/downloads';
import { findFbaWarehouses } from '@freight/contracts/fba-warehouses';
import { emptyResponse, okResponse, xlsxResponse } from '@freight/contracts/responses';
import { idBody, savedIdView } from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, organisationScope, parentOptions } from '../customers/service.ts';
import { answerExport } from '../downloads/runner.ts';
import { importToBook } from './book-import.ts';
import { addressExport } from './export.ts';
import {
  addressTemplate,
  bookOwner,
  defaultPickup,
  deleteAddress,
  insertAddresses,
  listAddresses,
  placesOfZip,
  readAddressFile,
  saveAddress,
  setDefaultPickup,
  visibleAddress,
} from './service.ts';

/** The book's own page, and the quote form that fills its addresses from the book. */
const READERS = ['/addressmanagement', '/mail'];
/**
 * The ZIP and warehouse lookups also serve the order payment page, where addresses are corrected, and
 * the express address book, whose form fills city and state from a US ZIP too.
 */
const LOOKUPS = [...READERS, '/addAddress', '/addressList'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function visible(user: RequestUser, id: number) {
    const row = await visibleAddress(db, await organisationScope(db, user), id);
    if (!row) throw notFound();
    return row;
  }

  app.post(
    '/admin/address/list',
    {
      config: { permission: READERS },
      schema: { tags: ['addresses'], body: addressListQuery, response: { 200: okResponse(addressListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { page, limit, ...filter } = request.body;
      const { list, total } = await listAddresses(db, await organisationScope(db, me), filter, {
        page,
        limit,
      });
      return { list, total, page, limit };
    },
  );

  app.post(
    '/admin/address/save',
    {
      config: { permission: 'address:save', audit: 'address.save' },
      schema: { tags: ['addresses'], body: addressSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { id, organisationId, isDefaultPickup, saveToBook: _s, ...address } = request.body;
      // An existing address stays in its book unless the caller names another one it may write to.
      const current = id ? await visible(me, id) : null;
      const owner =
        current && !organisationId ? current.organisationId : await bookOwner(db, me, organisationId);
      const saved = await saveAddress(db, {
        tenantId: me.tenantId,
        organisationId: owner,
        id,
        userId: me.id,
        address,
        isDefaultPickup,
      });
      if (!saved) throw notFound();
      request.auditTarget = `address:${saved}`;
      return { id: saved };
    },
  );

  app.post(
    '/admin/address/delete',
    {
      config: { permission: 'address:delete', audit: 'address.delete' },
      schema: { tags: ['addresses'], body: idBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visible(me, request.body.id);
      await deleteAddress(db, me.tenantId, row.id);
      request.auditTarget = `address:${row.id}`;
      return null;
    },
  );

  app.post(
    '/admin/address/setDefault',
    {
      config: { permission: 'address:save', audit: 'address.setDefault' },
      schema: { tags: ['addresses'], body: addressSetDefaultBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visible(me, request.body.id);
      await setDefaultPickup(db, row, request.body.isDefault);
      request.auditTarget = `address:${row.id}`;
      return null;
    },
  );

  /** The default pickup address the quote form starts from: the caller's own, or a visible organisation's. */
  app.post(
    '/admin/address/default',
    {
      config: { permission: READERS },
      schema: {
        tags: ['addresses'],
        body: addressDefaultBody,
        response: { 200: okResponse(defaultPickupView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { organisationId } = request.body;
      if (organisationId) {
        const scope = await organisationScope(db, me);
        if (!(await canSeeOrganisation(db, scope, organisationId))) throw notFound();
        return defaultPickup(db, me.tenantId, organisationId);
      }
      return me.organisationId ? defaultPickup(db, me.tenantId, me.organisationId) : null;
    },
  );

  /** Whose books the caller may write to, for the organisation choice of staff, branches and agents. */
  app.post(
    '/admin/address/owners',
    {
      // The express book's page chooses whose book the same way.
      config: { permission: [...READERS, '/addressList'] },
      schema: { tags: ['addresses'], response: { 200: okResponse(addressOwnersView) } },
    },
    async (request) => {
      const me = currentUser(request);
      return {
        list: await parentOptions(db, await organisationScope(db, me), ['branch', 'agent', 'customer']),
      };
    },
  );

  /** Multipart `file` (xlsx); `?organisationId=` names whose book (staff must). All rows go in, or none. */
  app.post(
    '/admin/address/import',
    {
      config: { permission: 'address:import', audit: 'address.import' },
      schema: {
        tags: ['addresses'],
        querystring: addressImportQuery,
        response: { 200: okResponse(addressImportedView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const owner = await bookOwner(db, me, request.query.organisationId);
      return importToBook(request, reply, owner, readAddressFile, (addresses) =>
        insertAddresses(db, { tenantId: me.tenantId, organisationId: owner, userId: me.id, addresses }),
      );
    },
  );

  /** Few rows at once; more written by a job in the download centre (export.ts). */
  app.post(
    '/admin/address/export',
    {
      config: { permission: '/addressmanagement', raw: true },
      schema: { tags: ['addresses'], body: addressListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, addressExport, request.body),
  );

  app.post(
    '/admin/address/template',
    {
      config: { permission: '/addressmanagement', raw: true },
      schema: { tags: ['addresses'], response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const en = request.language === 'en-US';
      return sendFile(
        reply,
        en ? 'address-template.xlsx' : '地址导入模板.xlsx',
        await addressTemplate(request.language),
      );
    },
  );

  /** SPEC section 7: the place of a five-digit US ZIP code, to fill city and state as it is typed. */
  app.post(
    '/admin/address/getListByZipcode',
    {
      config: { permission: LOOKUPS },
      schema: { tags: ['addresses'], body: zipLookupBody, response: { 200: okResponse(zipPlacesView) } },
    },
    async (request) => placesOfZip(request.body.zipcode),
  );

  /** SPEC section 7: Amazon FBA warehouses, for an address of type fba. */
  app.post(
    '/admin/address/getAmazonAddress',
    {
      config: { permission: LOOKUPS },
      schema: { tags: ['addresses'], body: fbaLookupBody, response: { 200: okResponse(fbaWarehousesView) } },
    },
    async (request) => findFbaWarehouses(request.body.keyword),
  );
};

export default routes;
