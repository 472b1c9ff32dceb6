import { CARRIER_KINDS, type CarrierKind } from '@freight/contracts/carriers';
import { App, Button, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
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
import { useReportError } from '../../hooks/useReportError.ts';
import { CARRIER_ACCOUNT_LIST_URL, type CarrierAccountRow, carrierAccountApi } from './api.ts';
import { CarrierAccountDialog } from './CarrierAccountDialog.tsx';
import { LastTestCell } from './LastTestCell.tsx';
import { formatTime, useFieldLabel } from './labels.ts';
import { WebhookCell } from './WebhookCell.tsx';

interface Filters {
  keyword?: string;
  kind?: CarrierKind;
  enabled?: boolean;
}

/**
 * `/carrierAccounts`: the tenant's accounts with carriers (UPS directly, many more through Karrio) that
 * the portal prices, labels and tracks through. Credentials are typed in once and never shown again; a
 * connection test tells staff whether the carrier accepts them.
 */
export default function CarrierAccountsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const allowed = useAuth();
  const label = useFieldLabel();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<CarrierAccountRow>(CARRIER_ACCOUNT_LIST_URL, filters);
  const [editing, setEditing] = useState<CarrierAccountRow | 'new' | null>(null);
  // Tests may run on several accounts at once; each row's button spins until its own answer.
  const [testing, setTesting] = useState<ReadonlySet<number>>(new Set());
  const canSave = allowed('carrier:save');
  const canDelete = allowed('carrier:delete');
  const canTest = allowed('carrier:test');

  const testConnection = (row: CarrierAccountRow) => {
    setTesting((ids) => new Set(ids).add(row.id));
    carrierAccountApi
      .testConnection(row.id)
      .then(
        (result) => {
          if (result.ok) void message.success(result.message);
          else void message.error(result.message);
          void list.refetch();
        },
        (error: unknown) => reportError(error),
      )
      .finally(() =>
        setTesting((ids) => {
          const left = new Set(ids);
          left.delete(row.id);
          return left;
        }),
      );
  };

  const remove = (row: CarrierAccountRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('carrierAccounts.deleteConfirm', { label: row.label }),
      okText: t('common.delete'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'carrier-delete-ok' },
      onOk: () =>
        carrierAccountApi.remove(row.id).then(
          () => {
            message.success(t('carrierAccount.deleted'));
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const addButton = (testId: string) =>
    canSave ? (
      <Button type="primary" onClick={() => setEditing('new')} data-testid={testId}>
        {t('carrierAccounts.new')}
      </Button>
    ) : null;

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined, kind: v.kind, enabled: v.enabled });
          list.resetPage();
        }}
        extra={addButton('carrier-new')}
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={t('carrierAccounts.keywordTip')}
            style={{ width: 200 }}
            data-testid="carrier-filter-keyword"
          />
        </Form.Item>
        <Form.Item name="kind" label={label('kind')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={CARRIER_KINDS.map((k) => ({ value: k, label: t(`carrierAccounts.kind.${k}`) }))}
            data-testid="carrier-filter-kind"
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
            data-testid="carrier-filter-enabled"
          />
        </Form.Item>
      </FilterBar>
      <Table<CarrierAccountRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        // Sized by their content, the columns fit a 1440 px desktop in either language beside the pinned
        // actions: the long texts (name, address, test result) wrap within their cells.
        {...listTableProps(0)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('carrierAccounts.empty')}
              noMatch={filtersSet(filters) && t('carrierAccounts.noMatch')}
              action={addButton('list-empty-action')}
            />
          ),
        }}
        columns={[
          {
            title: label('label'),
            render: (_, r) => (
              <Wrapped width={180} anywhere>
                <span data-testid={`carrier-label-${r.id}`}>{r.label}</span>
              </Wrapped>
            ),
          },
          {
            title: label('kind'),
            render: (_, r) => (
              <Tag color={r.kind === 'ups' ? 'gold' : 'blue'}>{t(`carrierAccounts.kind.${r.kind}`)}</Tag>
            ),
          },
          {
            title: label('environment'),
            render: (_, r) => (
              <Wrapped width={220}>
                {t(`carrierAccounts.environment.${r.environment}`)}
                <div>
                  {/* An address breaks only when longer than the cell (typography would break it
                      anywhere), so a phone cannot squeeze the column to a sliver. */}
                  <Typography.Text
                    type="secondary"
                    style={{ fontSize: 12, wordBreak: 'normal' }}
                    data-testid={`carrier-url-${r.id}`}
                  >
                    {r.baseUrl}
                  </Typography.Text>
                </div>
              </Wrapped>
            ),
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.enabled ? 'green' : 'default'} data-testid={`carrier-enabled-${r.id}`}>
                {r.enabled ? t('common.enabled') : t('common.disabled')}
              </Tag>
            ),
          },
          {
            title: t('carrierAccounts.lastTest'),
            render: (_, r) => <LastTestCell accountId={r.id} test={r.lastTest} />,
          },
          {
            title: t('carrierAccounts.webhook.title'),
            render: (_, r) => <WebhookCell row={r} canSave={canSave} onChanged={() => void list.refetch()} />,
          },
          {
            // Date over time under a two-line title: the webhook column beside it fits a 1440 px desktop.
            title: <Wrapped width={90}>{t('carrierAccounts.credentialsUpdatedAt')}</Wrapped>,
            render: (_, r) => <Wrapped width={90}>{formatTime(r.credentialsUpdatedAt)}</Wrapped>,
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              // Two lines rather than one wide column: "Test connection" alone is as wide as the rest.
              <Space size={0} wrap style={{ maxWidth: 170 }}>
                {canSave ? (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setEditing(r)}
                    data-testid={`carrier-edit-${r.id}`}
                  >
                    {t('common.edit')}
                  </Button>
                ) : null}
                {canTest ? (
                  <Button
                    type="link"
                    size="small"
                    loading={testing.has(r.id)}
                    onClick={() => testConnection(r)}
                    data-testid={`carrier-test-${r.id}`}
                  >
                    {t('carrierAccounts.test')}
                  </Button>
                ) : null}
                {canDelete ? (
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => remove(r)}
                    data-testid={`carrier-delete-${r.id}`}
                  >
                    {t('common.delete')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <CarrierAccountDialog
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.refetch();
          }}
        />
      ) : null}
    </div>
  );
}
