import { EnvironmentOutlined } from '@ant-design/icons';
import { EXPRESS_ADDRESS_KINDS, type ExpressAddressKind } from '@freight/contracts/addresses';
import { COUNTRIES } from '@freight/contracts/countries';
import { Button, Empty, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../components/Auth.tsx';
import { FilterBar, listTableProps, useServerList, Wrapped } from '../../components/list.tsx';
import { download } from '../../lib/http.ts';
import { EXPRESS_ADDRESS_LIST_URL, type ExpressAddressEntry, expressAddressApi } from './api.ts';
import { OwnerFilter, useBookOwners, useRowAction } from './BookParts.tsx';
import { ExpressAddressDialog } from './ExpressAddressDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';

interface Filters {
  keyword?: string;
  kind?: ExpressAddressKind;
  country?: string;
  state?: string;
  organisationId?: number;
}

const KIND_COLOURS: Record<ExpressAddressKind, string> = {
  sender: 'orange',
  recipient: 'blue',
  return: 'purple',
};

/**
 * `/addressList`: the express address book of the caller's organisation (and, for parents and staff,
 * those below): senders, recipients and return addresses that the express quote, the express batch
 * order and return waybills pick from.
 */
export default function ExpressAddressBookPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const allowed = useAuth();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<ExpressAddressEntry>(EXPRESS_ADDRESS_LIST_URL, filters);
  const [editing, setEditing] = useState<ExpressAddressEntry | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const { staff, owners: ownerList, manyBooks } = useBookOwners();
  const run = useRowAction(list.refetch);
  const label = (key: string) => t(`expressAddresses.${key}`);
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const canSave = allowed('express-address:save');
  const canImport = allowed('express-address:import');

  const addButton = (testId: string) =>
    canSave ? (
      <Button type="primary" onClick={() => setEditing('new')} data-testid={testId}>
        {label('new')}
      </Button>
    ) : null;

  // An empty book says what fills it and offers to; an empty search says only that nothing matches.
  const empty =
    filtered || list.loading ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={label('noMatch')} />
    ) : (
      <Empty
        image={<EnvironmentOutlined style={{ fontSize: 48, color: 'var(--ant-color-primary, #FF6D1F)' }} />}
        styles={{ image: { height: 56 } }}
        description={
          <div style={{ maxWidth: 520, margin: '0 auto', whiteSpace: 'normal' }}>
            <Typography.Title level={5} style={{ marginTop: 8 }}>
              {label('emptyTitle')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{label('emptyText')}</Typography.Paragraph>
          </div>
        }
        data-testid="express-address-empty"
      >
        <Space wrap style={{ justifyContent: 'center' }}>
          {addButton('express-address-empty-new')}
          {canImport ? <Button onClick={() => setImporting(true)}>{t('addresses.import')}</Button> : null}
        </Space>
      </Empty>
    );

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword?.trim() || undefined,
            kind: v.kind,
            country: v.country,
            state: v.state?.trim() || undefined,
            organisationId: v.organisationId,
          });
          list.resetPage();
        }}
        extra={
          <Space wrap>
            {canImport ? (
              <Button onClick={() => setImporting(true)} data-testid="express-address-import">
                {t('addresses.import')}
              </Button>
            ) : null}
            <Button
              onClick={() => void download('/express/address/export', filters, 'express-addresses.xlsx')}
              data-testid="express-address-export"
            >
              {t('common.export')}
            </Button>
            {addButton('express-address-new')}
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={label('keywordTip')}
            style={{ width: 240 }}
            data-testid="express-address-keyword"
          />
        </Form.Item>
        <Form.Item name="kind" label={label('kind')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('common.all')}
            options={EXPRESS_ADDRESS_KINDS.map((k) => ({ value: k, label: label(`kind.${k}`) }))}
            data-testid="express-address-filter-kind"
          />
        </Form.Item>
        <Form.Item name="country" label={label('country')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 170 }}
            placeholder={t('common.all')}
            options={COUNTRIES.filter((c) => c.short !== '').map((c) => ({
              value: c.short,
              label: `${c.short} · ${en ? c.en : c.name}`,
            }))}
            data-testid="express-address-filter-country"
          />
        </Form.Item>
        <Form.Item name="state" label={label('state')}>
          <Input
            allowClear
            style={{ width: 100 }}
            maxLength={60}
            data-testid="express-address-filter-state"
          />
        </Form.Item>
        {manyBooks ? <OwnerFilter owners={ownerList} /> : null}
      </FilterBar>
      <Table<ExpressAddressEntry>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        locale={{ emptyText: empty }}
        // Sized by their content, the columns fit a 1440 px desktop: the place rides under the street,
        // and a residential address is marked beside its kind.
        {...listTableProps(0)}
        data-testid="express-address-table"
        columns={[
          {
            title: label('name'),
            fixed: 'left',
            render: (_, r) => (
              <div>
                {r.name}
                {r.company ? <div style={{ color: '#999', fontSize: 12 }}>{r.company}</div> : null}
              </div>
            ),
          },
          {
            title: label('kind'),
            render: (_, r) => (
              <Space size={4}>
                <Tag color={KIND_COLOURS[r.kind]}>{label(`kind.${r.kind}`)}</Tag>
                {r.isDefault ? (
                  <Tag color="gold" data-testid="express-address-default-tag">
                    {label('default')}
                  </Tag>
                ) : null}
                {r.residential ? <Tag>{label('residential')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: label('address'),
            render: (_, r) => (
              <Wrapped width={260} anywhere>
                {[r.address1, r.address2].filter(Boolean).join(', ')}
                <div style={{ color: '#999', fontSize: 12 }}>
                  {r.city}, {r.state} {r.zipcode} · {r.country}
                </div>
              </Wrapped>
            ),
          },
          {
            title: label('phone'),
            render: (_, r) => (
              <div>
                +{r.dialCode} {r.phone}
                {r.email ? <div style={{ color: '#999', fontSize: 12 }}>{r.email}</div> : null}
              </div>
            ),
          },
          ...(manyBooks
            ? [{ title: t('addresses.organisation'), dataIndex: 'organisationName' as const }]
            : []),
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space size={0}>
                {canSave ? (
                  <>
                    <Button
                      type="link"
                      size="small"
                      onClick={() => setEditing(row)}
                      data-testid={`express-address-edit-${row.id}`}
                    >
                      {t('common.edit')}
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        void run(
                          () => expressAddressApi.setDefault(row.id, !row.isDefault),
                          row.isDefault ? t('common.saved') : label('defaultSet'),
                        )
                      }
                      data-testid={`express-address-default-${row.id}`}
                    >
                      {row.isDefault ? label('unsetDefault') : label('setDefault')}
                    </Button>
                  </>
                ) : null}
                {allowed('express-address:delete') ? (
                  <Popconfirm
                    title={t('expressAddresses.deleteConfirm', { name: row.company || row.name })}
                    okText={t('shell.ok')}
                    cancelText={t('shell.cancel')}
                    onConfirm={() => run(() => expressAddressApi.remove(row.id), t('common.deleted'))}
                  >
                    <Button type="link" size="small" danger data-testid={`express-address-delete-${row.id}`}>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <ExpressAddressDialog
          editing={editing}
          owners={ownerList}
          ownerRequired={staff}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.refetch();
          }}
        />
      ) : null}
      {importing ? (
        <ImportDialog
          owners={ownerList}
          ownerRequired={staff}
          endpoints={{
            title: label('importTitle'),
            importUrl: '/express/address/import',
            templateUrl: '/express/address/template',
            templateName: en ? 'express-address-template.xlsx' : '快递地址导入模板.xlsx',
          }}
          onClose={() => setImporting(false)}
          onImported={() => {
            setImporting(false);
            void list.refetch();
          }}
        />
      ) : null}
    </div>
  );
}
