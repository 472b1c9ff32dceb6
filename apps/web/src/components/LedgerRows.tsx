import { Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { money } from '../lib/money.ts';

export interface LedgerRow {
  id: number;
  type: string;
  amount: string;
  balanceAfter: string;
  note: string;
  createdAt: string;
}

/** The ledger rows of one order or waybill: when, what kind, how much, the balance after, and why. */
export function LedgerRows({ rows, testId }: { rows: readonly LedgerRow[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Table<LedgerRow>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={[...rows]}
      locale={{ emptyText: t('common.empty') }}
      data-testid={testId}
      columns={[
        {
          title: t('ledger.time'),
          dataIndex: 'createdAt',
          render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
        },
        { title: t('ledger.type'), dataIndex: 'type', render: (v: string) => t(`ledger.type.${v}`) },
        { title: t('ledger.amount'), dataIndex: 'amount', align: 'right', render: (v: string) => money(v) },
        {
          title: t('ledger.balanceAfter'),
          dataIndex: 'balanceAfter',
          align: 'right',
          render: (v: string) => money(v),
        },
        // A surcharge or work order row names its bill or work order here.
        { title: t('ledger.note'), dataIndex: 'note', ellipsis: true },
      ]}
    />
  );
}
