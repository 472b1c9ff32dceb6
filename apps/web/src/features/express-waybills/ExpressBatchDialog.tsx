import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BatchImportDialog } from '../../components/BatchImportDialog.tsx';
import { flattenPages, useSession } from '../../context/session.tsx';
import { EXPRESS_BATCH_ENDPOINTS, expressBatchApi, type ShipFromOption, WAYBILL_LIST_URL } from './api.ts';

const ORDER_LIST_PATH = '/expressOrderList';
/** Where the senders the dialog offers are kept. */
const ADDRESS_BOOK_PATH = '/addressList';

const optionLabel = (o: ShipFromOption) =>
  `${o.name} (${o.address_code}) · ${[o.detail, o.city, o.province_code, o.zipcode].filter(Boolean).join(', ')}`;

/**
 * The top bar's express batch order: the batch dialog with the express template, check and import.
 * Unlike the truck batch, a shipping address is required (SPEC section 5): every parcel ships from it.
 * Imported waybills wait unpaid; success offers the express order list, where they are paid.
 */
export function ExpressBatchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { userInfo, menus } = useSession();
  // The hint links to the express address book when the user's menu has it.
  const hasBook = flattenPages(menus).some((p) => p.node.paths === ADDRESS_BOOK_PATH);
  const forOthers = userInfo?.identity !== 'customer';
  // Staff belong to no organisation: they book for the customer they name.
  const customerRequired = !userInfo?.organisationId;
  const [organisationId, setOrganisationId] = useState<number | undefined>();
  const [addressId, setAddressId] = useState<number | undefined>();
  const bookReady = Boolean(organisationId) || !customerRequired;

  const customers = useQuery({
    queryKey: ['express-batch-customers'],
    queryFn: expressBatchApi.customers,
    enabled: open && forOthers,
  });
  const shipFrom = useQuery({
    queryKey: ['express-ship-from', organisationId ?? 'own'],
    queryFn: () => expressBatchApi.shipFrom(organisationId),
    enabled: open && bookReady,
  });
  const options = bookReady ? (shipFrom.data?.list ?? []) : [];

  // The book's default pickup address is the first choice, until the user picks another.
  useEffect(() => {
    if (addressId !== undefined || !shipFrom.data) return;
    const preferred = shipFrom.data.list.find((o) => o.isDefault);
    if (preferred) setAddressId(preferred.id);
  }, [shipFrom.data, addressId]);

  const blocked = !bookReady
    ? t('waybillBatch.customerFirst')
    : addressId === undefined
      ? t('expressBatch.addressRequired')
      : null;

  const imported = (answers: Record<string, string>) => {
    void queryClient.invalidateQueries({ queryKey: [WAYBILL_LIST_URL] });
    modal.confirm({
      title: t('waybillBatch.doneTitle'),
      content: t('waybillBatch.doneContent', { count: Object.keys(answers).length }),
      okText: t('waybillBatch.toList'),
      cancelText: t('waybillBatch.later'),
      onOk: () => navigate(ORDER_LIST_PATH),
    });
  };

  return (
    <BatchImportDialog
      title={t('shell.expressBatch')}
      open={open}
      onClose={onClose}
      endpoints={{
        ...EXPRESS_BATCH_ENDPOINTS,
        templateName: t('waybillBatch.templateName'),
      }}
      query={organisationId ? `?organisationId=${organisationId}` : ''}
      fields={addressId !== undefined ? { address_id: String(addressId) } : {}}
      blocked={blocked}
      onImported={imported}
      extra={
        <Form layout="vertical" component={false}>
          {forOthers ? (
            <Form.Item label={t('batch.customer')} required={customerRequired} style={{ marginBottom: 8 }}>
              <Select
                value={organisationId}
                allowClear={!customerRequired}
                onChange={(id?: number) => {
                  // Another customer has another address book.
                  setOrganisationId(id);
                  setAddressId(undefined);
                }}
                showSearch={{ optionFilterProp: 'label' }}
                loading={customers.isFetching}
                options={(customers.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                data-testid="express-batch-customer"
              />
            </Form.Item>
          ) : null}
          <Form.Item
            label={t('waybillBatch.address')}
            required
            extra={
              <>
                {bookReady && shipFrom.isSuccess && options.length === 0
                  ? t('waybillBatch.addressEmpty')
                  : t('waybillBatch.addressTip')}
                {hasBook ? (
                  <Button
                    type="link"
                    size="small"
                    style={{ paddingInline: 4, height: 'auto' }}
                    onClick={() => {
                      onClose();
                      navigate(ADDRESS_BOOK_PATH);
                    }}
                    data-testid="express-batch-open-book"
                  >
                    {t('waybillBatch.openBook')}
                  </Button>
                ) : null}
              </>
            }
            style={{ marginBottom: 0 }}
          >
            <Select
              value={addressId}
              onChange={setAddressId}
              disabled={!bookReady}
              placeholder={bookReady ? t('waybillBatch.address') : t('waybillBatch.customerFirst')}
              showSearch={{ optionFilterProp: 'label' }}
              loading={shipFrom.isFetching}
              options={options.map((o) => ({ value: o.id, label: optionLabel(o) }))}
              data-testid="express-batch-address"
            />
          </Form.Item>
        </Form>
      }
    />
  );
}
