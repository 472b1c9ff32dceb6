import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BatchImportDialog } from '../../components/BatchImportDialog.tsx';
import { useSession } from '../../context/session.tsx';
import { AddressPicker } from '../addresses/public.tsx';
import { truckQuoteApi } from '../truck-quotes/api.ts';
import { ORDER_LIST_URL } from './api.ts';

/** The top bar's truck batch order: the batch dialog with the truck template, check and import. */
export function TruckBatchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { userInfo } = useSession();
  const queryClient = useQueryClient();
  const forOthers = userInfo?.identity !== 'customer';
  const customers = useQuery({
    queryKey: ['quote-customers'],
    queryFn: truckQuoteApi.customerOptions,
    enabled: open && forOthers,
  });
  const [organisationId, setOrganisationId] = useState<number | undefined>();
  const [address, setAddress] = useState<{ id: number; label: string } | null>(null);
  return (
    <BatchImportDialog
      title={t('shell.truckBatch')}
      open={open}
      onClose={onClose}
      endpoints={{
        template: '/admin/order/batchTemplate',
        templateName: i18n.language === 'en-US' ? 'truck-batch-template.xlsx' : '卡车批量下单模板.xlsx',
        check: '/admin/order/importDataCheck',
        import: '/admin/order/batchOrdering',
      }}
      query={organisationId ? `?organisationId=${organisationId}` : ''}
      fields={address ? { address_id: String(address.id) } : {}}
      onImported={() => void queryClient.invalidateQueries({ queryKey: [ORDER_LIST_URL] })}
      extra={
        <Form layout="vertical" component={false}>
          {forOthers ? (
            <Form.Item label={t('batch.customer')} required style={{ marginBottom: 8 }}>
              <Select
                value={organisationId}
                onChange={setOrganisationId}
                showSearch={{ optionFilterProp: 'label' }}
                options={(customers.data?.list ?? []).map((c) => ({ value: c.id, label: c.name }))}
                data-testid="batch-customer"
              />
            </Form.Item>
          ) : null}
          <Form.Item label={t('batch.address')} extra={t('batch.addressTip')} style={{ marginBottom: 0 }}>
            <Space>
              <AddressPicker
                organisationId={organisationId}
                onPick={(entry) =>
                  setAddress({ id: entry.id, label: `${entry.name}, ${entry.city} ${entry.zipcode}` })
                }
              >
                {address ? address.label : t('quote.fromBook')}
              </AddressPicker>
              {address ? (
                <Button type="link" onClick={() => setAddress(null)}>
                  {t('batch.clearAddress')}
                </Button>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              )}
            </Space>
          </Form.Item>
        </Form>
      }
    />
  );
}
