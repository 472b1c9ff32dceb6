import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flattenPages, useSession } from '../../app/session.tsx';
import { type OrganisationOption, productApi } from './api.ts';

/** How long typing pauses before the customers are searched on the server. */
const SEARCH_DELAY_MS = 300;
/** The page that lets its holder list every customer (`/admin/customer/list` of kind allCustomer). */
const CUSTOMER_PAGE = '/allCustomer';

/**
 * The organisations a product is open to (none chosen: every customer). Branches and agents come in
 * one list, customers from a server search; names seen once are remembered, so a saved choice keeps
 * its name while the search shows other customers.
 */
export function OrganisationPicker({
  id,
  value,
  onChange,
}: {
  id?: string;
  value?: number[];
  onChange?: (value: number[]) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  // Both lists are the customer pages' business: without one, asking would be refused (and leave for /401).
  const { menus } = useSession();
  const mayList = flattenPages(menus).some((p) => p.node.paths === CUSTOMER_PAGE);
  const groups = useQuery({
    queryKey: ['product-org-groups'],
    queryFn: productApi.groupOptions,
    enabled: mayList,
  });
  const customers = useQuery({
    queryKey: ['product-org-customers', keyword],
    queryFn: () => productApi.customerOptions(keyword),
    placeholderData: keepPreviousData,
    enabled: mayList,
  });
  const seen = useRef(new Map<number, OrganisationOption>());
  for (const o of [...(groups.data?.list ?? []), ...(customers.data?.list ?? [])]) seen.current.set(o.id, o);

  const label = (o: OrganisationOption) => `${o.name} · ${t(`identity.${o.type}`)}`;
  const shown = new Map<number, OrganisationOption>();
  for (const o of groups.data?.list ?? []) shown.set(o.id, o);
  for (const o of customers.data?.list ?? []) shown.set(o.id, o);
  const options = [...shown.values()].map((o) => ({ value: o.id, label: label(o) }));
  // A chosen organisation outside the current search still needs its name in the box.
  for (const chosen of value ?? [])
    if (!shown.has(chosen)) {
      const known = seen.current.get(chosen);
      options.push({ value: chosen, label: known ? label(known) : `#${chosen}` });
    }

  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      placeholder={t('truckProducts.allOrganisations')}
      loading={groups.isLoading || customers.isFetching}
      showSearch={{ optionFilterProp: 'label', onSearch: setTyped }}
      options={options}
      maxTagCount="responsive"
      data-testid="product-organisations"
    />
  );
}
