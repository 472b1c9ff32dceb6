import { serviceLevelLabel } from '@freight/contracts/truck-products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Switch, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import {
  ALL_PRODUCTS_KEY,
  PRODUCT_LIST_URL,
  productApi,
  productInput,
  type TruckMode,
  type TruckProduct,
} from './api.ts';
import { ProductDialog } from './ProductDialog.tsx';
import { TermsDialog } from './TermsDialog.tsx';

const secondary = { color: '#999', fontSize: 12 } as const;

interface Filters {
  keyword?: string;
  mode?: TruckMode;
  enabled?: boolean;
}

/** `/productManagement`: the tenant's truck products, who may use them, and their fees and insurance. */
export default function TruckProductsPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<TruckProduct>(PRODUCT_LIST_URL, filters);
  const [editing, setEditing] = useState<TruckProduct | 'new' | null>(null);
  const [terms, setTerms] = useState<TruckProduct | null>(null);
  const queryClient = useQueryClient();
  // The tariff page and the drawer keep their own copy of every product; a change here makes it stale.
  const changed = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: [ALL_PRODUCTS_KEY] });
  };

  const setEnabled = useMutation({
    mutationFn: (row: TruckProduct) => productApi.save({ ...productInput(row), enabled: !row.enabled }),
    onSuccess: () => {
      message.success(t('common.saved'));
      changed();
    },
    onError: (error) => reportError(error),
  });

  const confirmStatus = (row: TruckProduct) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('common.statusConfirm', {
        action: row.enabled ? t('common.disable') : t('common.enable'),
        name: en ? row.nameEn : row.name,
      }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: row.enabled, 'data-testid': 'product-status-ok' } as never,
      onOk: () => setEnabled.mutateAsync(row).catch(() => undefined),
    });

  const feeCount = (row: TruckProduct) => Object.keys(row.accessorialFees).length;

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, mode: v.mode, enabled: v.enabled });
          list.resetPage();
        }}
        extra={
          <Button type="primary" onClick={() => setEditing('new')} data-testid="product-new">
            {t('truckProducts.new')}
          </Button>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('truckProducts.keywordTip')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="mode" label={t('truckProducts.mode')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={(['LTL', 'FTL'] as const).map((m) => ({ value: m, label: m }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
          />
        </Form.Item>
      </FilterBar>
      <Table<TruckProduct>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        // Sized by their content, the columns fit a 1440 px desktop in either language, so the pinned
        // actions cover no column: transit rides with the carrier, and who may use a product with its status.
        {...listTableProps(0)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('truckProducts.emptyList')}
              noMatch={filtersSet(filters) && t('truckProducts.noMatch')}
              action={
                <Button type="primary" onClick={() => setEditing('new')} data-testid="list-empty-action">
                  {t('truckProducts.new')}
                </Button>
              }
            />
          ),
        }}
        columns={[
          { title: t('truckProducts.code'), dataIndex: 'code', fixed: 'left' },
          {
            title: t('truckProducts.name'),
            render: (_, r) => (
              <div>
                {en ? r.nameEn : r.name}
                <div style={secondary}>{en ? r.name : r.nameEn}</div>
              </div>
            ),
          },
          {
            title: t('truckProducts.carrierTransit'),
            render: (_, r) => (
              <div>
                {r.carrier}
                <div style={secondary}>
                  {t('truckProducts.days', { min: r.transitDaysMin, max: r.transitDaysMax })}
                </div>
              </div>
            ),
          },
          {
            title: t('truckProducts.mode'),
            render: (_, r) => (
              <div>
                <Tag color={r.mode === 'LTL' ? 'blue' : 'purple'}>{r.mode}</Tag>
                <div style={secondary} data-testid={`service-level-${r.code}`}>
                  {serviceLevelLabel(r.serviceLevel, en ? 'en-US' : 'zh-CN')}
                </div>
              </div>
            ),
          },
          {
            title: t('truckProducts.terms'),
            render: (_, r) => (
              <Tooltip
                title={`${t('truckProducts.minimumPremium')} ${r.minimumPremium} · ${t('truckProducts.deductible')} ${r.deductible}`}
              >
                <div>
                  {t('truckProducts.insuranceShort', { rate: r.insuranceRatePercent, min: r.minimumPremium })}
                  <div style={secondary}>{t('truckProducts.feeCount', { count: feeCount(r) })}</div>
                </div>
              </Tooltip>
            ),
          },
          {
            title: t('truckProducts.statusOrganisations'),
            render: (_, r) => (
              <Space orientation="vertical" size={4}>
                <Switch
                  checked={r.enabled}
                  loading={setEnabled.isPending && setEnabled.variables?.id === r.id}
                  onChange={() => confirmStatus(r)}
                  data-testid={`product-status-${r.code}`}
                />
                {r.organisationIds.length === 0 ? (
                  <Tag>{t('truckProducts.everyone')}</Tag>
                ) : (
                  <Tag color="orange">
                    {t('truckProducts.someOrganisations', { count: r.organisationIds.length })}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  {t('common.edit')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setTerms(r)}
                  data-testid={`product-terms-${r.code}`}
                >
                  {t('truckProducts.terms')}
                </Button>
                <Button type="link" size="small" onClick={() => navigate(`/freightRule?productId=${r.id}`)}>
                  {t('truckProducts.lanes')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <ProductDialog
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      ) : null}
      {terms ? (
        <TermsDialog
          product={terms}
          onClose={() => setTerms(null)}
          onSaved={() => {
            setTerms(null);
            changed();
          }}
        />
      ) : null}
    </div>
  );
}
