import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import {
  ALL_CHANNELS_KEY,
  ALL_PRODUCTS_KEY,
  channelListPath,
  type ExpressProduct,
  PRODUCT_LIST_URL,
  productApi,
} from './api.ts';
import { ProductDialog } from './ProductDialog.tsx';
import { StatusAndUsers } from './StatusAndUsers.tsx';
import { useRowActions } from './useRowActions.ts';

interface Filters {
  keyword?: string;
  enabled?: boolean;
}

/** `/expressProductManagement`: what customers buy and see on an express quote, and who may use it. */
export default function ExpressProductsPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const navigate = useNavigate();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<ExpressProduct>(PRODUCT_LIST_URL, filters);
  const [editing, setEditing] = useState<ExpressProduct | 'new' | null>(null);
  const queryClient = useQueryClient();
  // The channel pages keep their own copy of every product (and channels show their product's name).
  const changed = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: [ALL_PRODUCTS_KEY] });
    void queryClient.invalidateQueries({ queryKey: [ALL_CHANNELS_KEY] });
  };
  const nameOf = (p: ExpressProduct) => (en ? p.nameEn : p.name);

  const { confirmStatus, confirmRemove, switchingRow, removingRow } = useRowActions<ExpressProduct>({
    kind: 'product',
    nameOf,
    enable: productApi.enable,
    remove: productApi.remove,
    deleteConfirm: (name) => t('expressProducts.deleteConfirm', { name }),
    changed,
  });

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined, enabled: v.enabled });
          list.resetPage();
        }}
        extra={
          <Button type="primary" onClick={() => setEditing('new')} data-testid="express-product-new">
            {t('expressProducts.new')}
          </Button>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear maxLength={100} placeholder={t('expressProducts.keywordTip')} />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder={t('common.all')}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
          />
        </Form.Item>
      </FilterBar>
      <Table<ExpressProduct>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1100)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('expressProducts.empty')}
              noMatch={filtersSet(filters) && t('expressProducts.noMatch')}
              action={
                <Button type="primary" onClick={() => setEditing('new')} data-testid="list-empty-action">
                  {t('expressProducts.new')}
                </Button>
              }
            />
          ),
        }}
        data-testid="express-products-table"
        columns={[
          { title: t('expressProducts.code'), dataIndex: 'code', fixed: 'left' },
          {
            title: t('expressProducts.name'),
            render: (_, r) => (
              <div>
                {nameOf(r)}
                <div style={{ color: '#999', fontSize: 12 }}>{en ? r.name : r.nameEn}</div>
              </div>
            ),
          },
          {
            title: t('expressProducts.description'),
            render: (_, r) => {
              const text = en ? r.descriptionEn : r.description;
              // Cells stay on one line: a long description is cut, and shown whole on hover.
              return text ? (
                <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 200 }}>
                  {text}
                </Typography.Text>
              ) : (
                '-'
              );
            },
          },
          {
            title: t('expressProducts.channels'),
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                style={{ paddingInline: 0 }}
                onClick={() => navigate(channelListPath(r.id))}
                data-testid={`express-product-channels-${r.code}`}
              >
                {t('expressProducts.channelCount', { enabled: r.enabledChannels, total: r.channels })}
              </Button>
            ),
          },
          {
            // Who may use a product rides with its status, so the list fits a 1440 px desktop.
            title: t('expressChannels.statusOrganisations'),
            render: (_, r) => (
              <StatusAndUsers
                enabled={r.enabled}
                switching={switchingRow(r)}
                onToggle={() => confirmStatus(r)}
                organisationCount={r.organisationIds.length}
                testId={`express-product-status-${r.code}`}
              />
            ),
          },
          {
            title: t('expressProducts.updatedAt'),
            render: (_, r) => (
              <Typography.Text type="secondary">
                {dayjs(r.updatedAt).format('YYYY-MM-DD HH:mm')}
              </Typography.Text>
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(r)}
                  data-testid={`express-product-edit-${r.code}`}
                >
                  {t('common.edit')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  loading={removingRow(r)}
                  onClick={() => confirmRemove(r)}
                  data-testid={`express-product-delete-${r.code}`}
                >
                  {t('common.delete')}
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
    </div>
  );
}
