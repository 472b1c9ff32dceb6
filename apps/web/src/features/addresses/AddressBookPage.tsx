import { ADDRESS_TYPE_LABELS } from '@freight/contracts/addresses';
import { ADDRESS_TYPES, type AddressType } from '@freight/contracts/truck-shipment';
import { Button, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../components/Auth.tsx';
import {
  FilterBar,
  filtersSet,
  ListEmpty,
  listTableProps,
  useServerList,
  Wrapped,
} from '../../components/list.tsx';
import { download } from '../../lib/http.ts';
import { AddressDialog } from './AddressDialog.tsx';
import { ADDRESS_LIST_URL, type AddressBookEntry, addressApi } from './api.ts';
import { OwnerFilter, useBookOwners, useRowAction } from './BookParts.tsx';
import { ImportDialog } from './ImportDialog.tsx';

interface Filters {
  keyword?: string;
  addressType?: AddressType;
  organisationId?: number;
}

/** `/addressmanagement`: the truck address book of the caller's organisation (and, for parents and staff, those below). */
export default function AddressBookPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const allowed = useAuth();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<AddressBookEntry>(ADDRESS_LIST_URL, filters);
  const [editing, setEditing] = useState<AddressBookEntry | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const { staff, owners: ownerList, manyBooks } = useBookOwners();
  const run = useRowAction(list.refetch);

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword || undefined,
            addressType: v.addressType,
            organisationId: v.organisationId,
          });
          list.resetPage();
        }}
        extra={
          <Space>
            {allowed('address:import') ? (
              <Button onClick={() => setImporting(true)} data-testid="address-import">
                {t('addresses.import')}
              </Button>
            ) : null}
            <Button onClick={() => void download('/admin/address/export', filters, 'addresses.xlsx')}>
              {t('common.export')}
            </Button>
            {allowed('address:save') ? (
              <Button type="primary" onClick={() => setEditing('new')} data-testid="address-new">
                {t('addresses.new')}
              </Button>
            ) : null}
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('addresses.keywordTip')} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="addressType" label={t('addresses.type')}>
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('common.all')}
            options={ADDRESS_TYPES.map((type) => ({
              value: type,
              label: ADDRESS_TYPE_LABELS[type][language],
            }))}
            data-testid="address-filter-type"
          />
        </Form.Item>
        {manyBooks ? <OwnerFilter owners={ownerList} /> : null}
      </FilterBar>
      <Table<AddressBookEntry>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        // Sized by their content, the columns fit a 1440 px desktop: nothing sits under the pinned
        // actions as the list opens. The place rides under the street, the window under the type.
        {...listTableProps(0)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('addresses.empty')}
              noMatch={filtersSet(filters) && t('addresses.noMatch')}
              action={
                allowed('address:save') || allowed('address:import') ? (
                  <Space wrap style={{ justifyContent: 'center' }}>
                    {allowed('address:save') ? (
                      <Button
                        type="primary"
                        onClick={() => setEditing('new')}
                        data-testid="list-empty-action"
                      >
                        {t('addresses.new')}
                      </Button>
                    ) : null}
                    {allowed('address:import') ? (
                      <Button onClick={() => setImporting(true)}>{t('addresses.import')}</Button>
                    ) : null}
                  </Space>
                ) : null
              }
            />
          ),
        }}
        columns={[
          {
            title: t('addresses.name'),
            fixed: 'left',
            // The default mark sits under the name, so a long name never pushes it out of sight.
            render: (_, r) => (
              <Wrapped width={200} anywhere>
                {r.name}
                {r.isDefaultPickup ? (
                  <div>
                    <Tag color="orange" style={{ marginTop: 2 }} data-testid="address-default-tag">
                      {t('addresses.default')}
                    </Tag>
                  </div>
                ) : null}
              </Wrapped>
            ),
          },
          {
            title: t('addresses.address'),
            render: (_, r) => (
              <Wrapped width={260} anywhere>
                {[r.address1, r.address2].filter(Boolean).join(', ')}
                <div style={{ color: '#595959', fontSize: 12 }}>
                  {r.city}, {r.state} {r.zipcode}
                </div>
              </Wrapped>
            ),
          },
          {
            title: t('addresses.contact'),
            render: (_, r) => (
              <div>
                {r.contact}
                <div style={{ color: '#999', fontSize: 12 }}>
                  +{r.dialCode} {r.phone}
                </div>
              </div>
            ),
          },
          {
            title: `${t('addresses.type')} / ${t('addresses.window')}`,
            render: (_, r) => (
              <div>
                <Tag color={r.addressType === 'fba' ? 'blue' : undefined}>
                  {ADDRESS_TYPE_LABELS[r.addressType][language]}
                  {r.fbaCode ? ` · ${r.fbaCode}` : ''}
                </Tag>
                <div style={{ color: '#595959', fontSize: 12 }}>
                  {r.windowStart}-{r.windowEnd}
                </div>
              </div>
            ),
          },
          ...(manyBooks
            ? [
                {
                  title: t('addresses.organisation'),
                  render: (_: unknown, r: AddressBookEntry) => (
                    <Wrapped width={160} anywhere>
                      {r.organisationName}
                    </Wrapped>
                  ),
                },
              ]
            : []),
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space size={0}>
                {allowed('address:save') ? (
                  <>
                    <Button type="link" size="small" onClick={() => setEditing(row)}>
                      {t('common.edit')}
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        void run(
                          () => addressApi.setDefault(row.id, !row.isDefaultPickup),
                          row.isDefaultPickup ? t('common.saved') : t('addresses.defaultSet'),
                        )
                      }
                      data-testid={`address-default-${row.id}`}
                    >
                      {row.isDefaultPickup ? t('addresses.unsetDefault') : t('addresses.setDefault')}
                    </Button>
                  </>
                ) : null}
                {allowed('address:delete') ? (
                  <Popconfirm
                    title={t('addresses.deleteConfirm', { name: row.name })}
                    okText={t('shell.ok')}
                    cancelText={t('shell.cancel')}
                    onConfirm={() => run(() => addressApi.remove(row.id), t('common.deleted'))}
                  >
                    <Button type="link" size="small" danger data-testid={`address-delete-${row.id}`}>
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
        <AddressDialog
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
