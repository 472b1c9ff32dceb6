import { useQuery } from '@tanstack/react-query';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_PRODUCTS_KEY, productApi, type TruckProduct } from './api.ts';

/** A customer's read-only view of the truck products it may quote and book. */
export default function ProductsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const products = useQuery({ queryKey: [ALL_PRODUCTS_KEY], queryFn: productApi.all, enabled: open });
  return (
    <Drawer
      title={t('shell.freightRules')}
      open={open}
      onClose={onClose}
      size={720}
      data-testid="products-drawer"
    >
      <Typography.Paragraph type="secondary">{t('freightRules.customerTip')}</Typography.Paragraph>
      <Table<TruckProduct>
        rowKey="id"
        size="small"
        loading={products.isFetching}
        dataSource={products.data?.list ?? []}
        pagination={false}
        columns={[
          {
            title: t('truckProducts.name'),
            render: (_, p) => (en ? p.nameEn : p.name),
          },
          { title: t('truckProducts.carrier'), dataIndex: 'carrier' },
          {
            title: t('truckProducts.mode'),
            width: 80,
            render: (_, p) => <Tag color={p.mode === 'LTL' ? 'blue' : 'purple'}>{p.mode}</Tag>,
          },
          {
            title: t('truckProducts.transitDays'),
            width: 120,
            render: (_, p) => t('truckProducts.days', { min: p.transitDaysMin, max: p.transitDaysMax }),
          },
        ]}
      />
    </Drawer>
  );
}
