import type { AddressBookEntry } from '@freight/contracts/addresses';
import { fbaWarehousesView } from '@freight/contracts/addresses';
import {
  addressCheckBody,
  addressCheckedView,
  expressAddressOptionsView,
} from '@freight/contracts/express-quotes';
import { findFbaWarehouses } from '@freight/contracts/fba-warehouses';
import { okResponse } from '@freight/contracts/responses';
import { queryId, str } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badField } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, organisationScope } from '../customers/service.ts';
import { listAddresses, placesOfZip } from './service.ts';

/**
 * The express pages that fill a sender, a recipient or a return address from the book; the order list
 * too, whose holders may batch-order (the top bar's dialog picks the shipping address), and the
 * returns list, which sends parcels back to a return address.
 */
const EXPRESS_ADDRESS_PAGES = [
  '/onlineQuotation',
  '/queryQuotation',
  '/waybillValuation',
  '/addressList',
  '/expressOrderList',
  '/expressReturnsList',
];
/** Address types a returned parcel can be received at. */
const RETURN_TYPES = new Set(['business', 'warehouse']);
const OPTIONS_LIMIT = 200;

/** SPEC section 3 "Express shipping address option", with the rest of the address to fill the form. */
function asOption(entry: AddressBookEntry) {
  return {
    id: entry.id,
    address_code: entry.fbaCode || `A${entry.id}`,
    name: entry.name,
    detail: [entry.address1, entry.address2].filter(Boolean).join(', '),
    country: entry.country,
    province_code: entry.state,
    city: entry.city,
    zipcode: entry.zipcode,
    contact: entry.contact,
    dialCode: entry.dialCode,
    phone: entry.phone,
    email: entry.email,
    address1: entry.address1,
    address2: entry.address2,
    residential: entry.addressType === 'residential',
    isDefault: entry.isDefaultPickup,
  };
}

const bookQuery = z.object({ organisationId: queryId().optional() });

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The book of the organisation a quote is for: the caller's own, or one it may see when named. */
  async function book(user: RequestUser, organisationId: number | undefined) {
    const scope = await organisationScope(db, user);
    const owner = organisationId ?? user.organisationId;
    if (!owner) return [];
    if (!(await canSeeOrganisation(db, scope, owner)))
      throw badField('organisationId', 'customers.parentNotVisible');
    const { list } = await listAddresses(
      db,
      scope,
      { organisationId: owner },
      { page: 1, limit: OPTIONS_LIMIT },
    );
    return list;
  }

  /** `address/listOptions`: the addresses parcels may ship from, the default pickup first. */
  app.get(
    '/express/address/listOptions',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        querystring: bookQuery,
        response: { 200: okResponse(expressAddressOptionsView) },
      },
    },
    async (request) => ({
      list: (await book(currentUser(request), request.query.organisationId)).map(asOption),
    }),
  );

  /** `address/returns`: the addresses a returned parcel may go back to (businesses and warehouses). */
  app.get(
    '/express/address/returns',
    {
      config: { permission: EXPRESS_ADDRESS_PAGES },
      schema: {
        tags: ['express'],
        querystring: bookQuery,
        response: { 200: okResponse(expressAddressOptionsView) },
      },
    },
    async (request) => ({
      list: (await book(currentUser(request), request.query.organisationId))
        .filter((entry) => RETURN_TYPES.has(entry.addressType))
        .map(asOption),
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
      if (country !== 'US') return { zipcode, city, state, country, confirmed: false };
      if (!/^\d{5}(-\d{4})?$/.test(zipcode)) throw badField('zipcode', 'validation.zip');
      const [place] = placesOfZip(zipcode.slice(0, 5));
      if (!place) throw badField('zipcode', 'express.addressUnknownZip');
      if (state.trim().toUpperCase() !== place.state)
        throw badField('state', 'express.addressStateMismatch', { zipcode, state: place.state });
      if (city.trim().toUpperCase() !== place.city.toUpperCase())
        throw badField('city', 'express.addressCityMismatch', { zipcode, city: place.city });
      return { zipcode, city: place.city, state: place.state, country, confirmed: true };
    },
  );
};

export default routes;
