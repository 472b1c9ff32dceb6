import { useQuery } from '@tanstack/react-query';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListEmpty, useLocalPager } from '../../components/list.tsx';
import { post } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';

interface AccountRow {
  id: number;
  organisationName: string;
  status: 'normal' | 'frozen';
  balance: string;
  creditLimit: string;
  frozen: string;
  deposit: string;
  available: string;
}

type Totals = Omit<AccountRow, 'id' | 'organisationName' | 'status'>;

/** Every account of a line in scope with balance, credit, frozen, available, and grand totals. */
export function BalanceTotalPage({ line }: { line: 'truck' | 'express' }) {
  const { t } = useTranslation();
  const pager = useLocalPager();
  const { data, isFetching } = useQuery({
    queryKey: ['balance-total', line],
    queryFn: () => post<{ list: AccountRow[]; totals: Totals }>('/admin/account/balanceTotal', { line }),
  });
  const moneyColumn = (key: keyof Totals) => ({
    title: t(`balance.${key}`),
    align: 'right' as const,
    dataIndex: key,
    render: (value: string) => money(value),
  });
  return (
    <div className="page-card">
      <Table<AccountRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={pager}
        className="nowrap-table"
        locale={{
          emptyText: (
            <ListEmpty
              text={t('balance.empty')}
              to={line === 'express' ? '/expressAllCustomer' : '/allCustomer'}
              toButton="customer:save"
              label={t('balance.emptyAction')}
            />
          ),
        }}
        columns={[
          { title: t('customers.name'), dataIndex: 'organisationName' },
          {
            title: t('customers.account'),
            render: (_, r) =>
              r.status === 'frozen' ? (
                <Tag color="red">{t('customers.frozen')}</Tag>
              ) : (
                <Tag>{t('customers.normal')}</Tag>
              ),
          },
          moneyColumn('balance'),
          moneyColumn('creditLimit'),
          moneyColumn('frozen'),
          moneyColumn('deposit'),
          moneyColumn('available'),
        ]}
        summary={() =>
          data ? (
            <Table.Summary.Row style={{ fontWeight: 600 }}>
              <Table.Summary.Cell index={0}>{t('balance.total')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              {(['balance', 'creditLimit', 'frozen', 'deposit', 'available'] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 2} align="right">
                  {money(data.totals[k])}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </div>
  );
}
