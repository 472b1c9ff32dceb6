import { CARRIER_ACCOUNTS_PAGE, CARRIER_KINDS, type CarrierKind } from '@freight/contracts/carriers';
import { useQuery } from '@tanstack/react-query';
import { flattenPages, useSession } from '../../context/session.tsx';
import { CARRIER_ACCOUNTS_KEY, type CarrierAccount, carrierAccountsApi } from './api.ts';

/** The kind of carrier account a channel's provider names; null for the tenant's own tables. */
export const carrierKindOf = (provider: string): CarrierKind | null =>
  CARRIER_KINDS.find((kind) => kind === provider) ?? null;

/**
 * UPS's service codes that tenants most often sell, with UPS's own names (brand names, the same in both
 * languages). Any other code UPS rates may be typed in.
 */
export const UPS_SERVICES = [
  { code: '03', name: 'Ground' },
  { code: '12', name: '3 Day Select' },
  { code: '02', name: '2nd Day Air' },
  { code: '59', name: '2nd Day Air A.M.' },
  { code: '13', name: 'Next Day Air Saver' },
  { code: '01', name: 'Next Day Air' },
  { code: '14', name: 'Next Day Air Early' },
  { code: '11', name: 'Standard' },
  { code: '65', name: 'Worldwide Saver' },
  { code: '07', name: 'Worldwide Express' },
  { code: '08', name: 'Worldwide Expedited' },
  { code: '54', name: 'Worldwide Express Plus' },
] as const;

/** Karrio names a service `carrier:service`, as its rates do; these show the form. */
export const KARRIO_SERVICE_EXAMPLES = ['ups:ups_ground', 'fedex:fedex_ground'] as const;

/** The service codes offered for an account's kind, as options of the code input. */
export const serviceOptions = (kind: CarrierKind): { value: string; label: string }[] =>
  kind === 'ups'
    ? UPS_SERVICES.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))
    : KARRIO_SERVICE_EXAMPLES.map((code) => ({ value: code, label: code }));

/**
 * The tenant's carrier accounts, for staff who may open the carrier accounts page: the list is that
 * page's call, and anyone else asking would be refused (and sent to /401).
 */
export function useCarrierAccounts(): { mayList: boolean; accounts: CarrierAccount[]; loading: boolean } {
  const { menus } = useSession();
  const mayList = flattenPages(menus).some((p) => p.node.paths === CARRIER_ACCOUNTS_PAGE);
  const query = useQuery({
    queryKey: [CARRIER_ACCOUNTS_KEY],
    queryFn: carrierAccountsApi.all,
    enabled: mayList,
  });
  return { mayList, accounts: query.data?.list ?? [], loading: mayList && query.isLoading };
}
