import type { CarrierKind } from '@freight/contracts/carriers';
import type { CarrierClient } from './connection.ts';
import { karrioClient } from './karrio/client.ts';
import { upsClient } from './ups/client.ts';

/** Each kind of carrier account's client: adding a carrier is its folder and one line here. */
const CLIENTS: Record<CarrierKind, CarrierClient> = { ups: upsClient, karrio: karrioClient };

export const clientFor = (kind: CarrierKind): CarrierClient => CLIENTS[kind];
