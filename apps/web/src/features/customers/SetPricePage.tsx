import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Select, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../components/list.tsx';
import { customersApi } from './api.ts';
import { ExpressPriceLevels } from './ExpressPriceLevels.tsx';

/** How long typing pauses before customers are searched on the server. */
const SEARCH_DELAY_MS = 300;

interface Choice {
  id: number;
  name: string;
  type: string;
}

/** One branch, agent or customer: branches and agents in one list, customers searched on the server. */
function OrganisationSelect({ value, onChange }: { value: number | null; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const groups = useQuery({ queryKey: ['set-price-groups'], queryFn: customersApi.groupOptions });
  const customers = useQuery({
    queryKey: ['set-price-customers', keyword],
    queryFn: () => customersApi.expressCustomers(keyword),
    placeholderData: keepPreviousData,
  });
  const found: Choice[] = [
    ...(groups.data?.list ?? []),
    ...(customers.data?.list ?? []).map(({ id, name, type }) => ({ id, name, type })),
  ];
  // The chosen one keeps its name while a search shows others.
  const seen = useRef(new Map<number, Choice>());
  for (const o of found) seen.current.set(o.id, o);
  const options = found.map((o) => ({ value: o.id, label: `${o.name} · ${t(`identity.${o.type}`)}` }));
  const chosen = value === null ? undefined : seen.current.get(value);
  if (chosen && !found.some((o) => o.id === chosen.id))
    options.push({ value: chosen.id, label: `${chosen.name} · ${t(`identity.${chosen.type}`)}` });
  return (
    <Select
      value={value ?? undefined}
      onChange={onChange}
      placeholder={t('expressPrice.pickOrganisation')}
      loading={groups.isLoading || customers.isFetching}
      showSearch={{ optionFilterProp: 'label', onSearch: setTyped }}
      options={options}
      style={{ width: 360 }}
      data-testid="set-price-organisation"
    />
  );
}

/**
 * `/setPrice` (staff): the express markups of one organisation down the waterfall operator → branch →
 * agent → customer, its default and each channel's own, with a sample parcel priced at every level.
 */
export default function SetPricePage() {
  const { t } = useTranslation();
  const [organisationId, setOrganisationId] = useState<number | null>(null);
  // The same queries as the picker's first open (shared by key): with none of either, there is nobody to price.
  const groups = useQuery({ queryKey: ['set-price-groups'], queryFn: customersApi.groupOptions });
  const customers = useQuery({
    queryKey: ['set-price-customers', ''],
    queryFn: () => customersApi.expressCustomers(''),
  });
  const nobody = groups.data?.list.length === 0 && customers.data?.list.length === 0;
  return (
    <Card>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text strong>{t('expressPrice.pickOrganisation')}</Typography.Text>
          <OrganisationSelect value={organisationId} onChange={setOrganisationId} />
        </Space>
        {nobody ? (
          <ListEmpty
            text={t('expressPrice.noOrganisations')}
            to="/expressAllCustomer"
            toButton="customer:save"
            label={t('expressPrice.noOrganisationsAction')}
          />
        ) : organisationId === null ? (
          <Empty description={t('expressPrice.pickTip')} />
        ) : (
          <ExpressPriceLevels key={organisationId} organisationId={organisationId} />
        )}
      </Space>
    </Card>
  );
}
