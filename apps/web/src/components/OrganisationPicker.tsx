import type { BusinessLine } from '@freight/contracts/accounts';
import type { organisationListView, parentOptionsView } from '@freight/contracts/customers';
import type { Wire } from '@freight/contracts/responses';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flattenPages, useSession } from '../context/session.tsx';
import { post } from '../lib/http.ts';

type OrganisationOption = Wire<typeof parentOptionsView>['list'][number];

/** How long typing pauses before the customers are searched on the server. */
const SEARCH_DELAY_MS = 300;
/** The page that lets its holder list every customer of a line (`/admin/customer/list`, allCustomer). */
const CUSTOMER_PAGE: Record<BusinessLine, string> = {
  truck: '/allCustomer',
  express: '/expressAllCustomer',
};

const groupOptions = () =>
  post<Wire<typeof parentOptionsView>>('/admin/customer/parentOptions', { type: 'customer' });

/** Customers, searched on the server: there may be many more than a select can hold. */
const customerOptions = (line: BusinessLine, keyword: string) =>
  post<Wire<typeof organisationListView>>('/admin/customer/list', {
    kind: 'allCustomer',
    line,
    keyword: keyword || undefined,
    enabled: true,
    page: 1,
    limit: 50,
  });

/**
 * The organisations a product or channel is open to (none chosen: every customer). Branches and agents
 * come in one list, customers of the line from a server search; names seen once are remembered, so a
 * saved choice keeps its name while the search shows other customers.
 */
export function OrganisationPicker({
  line,
  id,
  value,
  onChange,
  placeholder,
  testId = 'organisations',
}: {
  line: BusinessLine;
  /** Set by the form item, so its label points at this select. */
  id?: string;
  value?: number[];
  onChange?: (value: number[]) => void;
  placeholder?: string;
  testId?: string;
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
  const mayList = flattenPages(menus).some((p) => p.node.paths === CUSTOMER_PAGE[line]);
  const groups = useQuery({
    queryKey: ['organisation-picker-groups'],
    queryFn: groupOptions,
    enabled: mayList,
  });
  const customers = useQuery({
    queryKey: ['organisation-picker-customers', line, keyword],
    queryFn: () => customerOptions(line, keyword),
    placeholderData: keepPreviousData,
    enabled: mayList,
  });
  const found: OrganisationOption[] = [
    ...(groups.data?.list ?? []),
    ...(customers.data?.list ?? []).map(({ id, name, type }) => ({ id, name, type })),
  ];
  const seen = useRef(new Map<number, OrganisationOption>());
  for (const o of found) seen.current.set(o.id, o);

  const label = (o: OrganisationOption) => `${o.name} · ${t(`identity.${o.type}`)}`;
  const shown = new Map(found.map((o) => [o.id, o]));
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
      placeholder={placeholder}
      loading={groups.isLoading || customers.isFetching}
      showSearch={{ optionFilterProp: 'label', onSearch: setTyped }}
      options={options}
      maxTagCount="responsive"
      data-testid={testId}
    />
  );
}
