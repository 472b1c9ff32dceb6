import type { RequestUser } from '../../plugins/context.ts';

/** Who calls the order services: staff, or an organisation's user. */
export type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

/** A caller with its grants: what it may see and do of an order depends on its buttons. */
export type OrderViewer = Caller & Pick<RequestUser, 'grants'>;

export const isStaff = (caller: Pick<RequestUser, 'identity'>) => caller.identity === 'employee';
